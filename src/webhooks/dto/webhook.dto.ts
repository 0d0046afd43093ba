import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, Length } from 'class-validator';
import { Optional } from '../../common/validation/optional';
import { DeliberatelyServed } from '../../common/redaction/redact';
import { EVENT_TYPES } from '../event-types';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';

/** The refusals Create and Update word the same way (the console shows them beside the field). */
const URL_MESSAGE = { message: 'must be an http(s) URL of 1 to 2048 characters' };
const EVENT_TYPES_MESSAGE = { message: 'must name at least one event type' };

export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://example.com/hooks/fundgate',
    maxLength: 2048,
    description: 'http(s) URL; private, loopback and link-local targets are refused unless the operator allows them',
  })
  @IsString()
  @Length(1, 2048, URL_MESSAGE)
  url: string;

  @ApiProperty({ enum: EVENT_TYPES, isArray: true, example: ['proposal.approved', 'nav.published'] })
  @IsArray()
  @ArrayMinSize(1, EVENT_TYPES_MESSAGE)
  @ArrayMaxSize(EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPES, { each: true })
  eventTypes: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @Optional()
  @IsString()
  @Length(0, 500)
  description?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: 2048 })
  @Optional()
  @IsString()
  @Length(1, 2048, URL_MESSAGE)
  url?: string;

  @ApiPropertyOptional({ enum: EVENT_TYPES, isArray: true })
  @Optional()
  @IsArray()
  @ArrayMinSize(1, EVENT_TYPES_MESSAGE)
  @ArrayMaxSize(EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(EVENT_TYPES, { each: true })
  eventTypes?: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @Optional()
  @IsString()
  @Length(0, 500)
  description?: string;

  @ApiPropertyOptional({ description: 'Re-enable a subscription disabled by a 410, or pause one' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: EVENT_TYPES, isArray: true }) eventTypes: string[];
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: String, nullable: true, example: 'the receiver answered 410 Gone' }) disabledReason:
    string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until then the previous secret also signs (rotation overlap)',
  })
  previousSecretExpiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Standard Webhooks secret. Shown only in this response.',
  })
  @DeliberatelyServed('the signing secret, shown once to whoever creates the subscription')
  signingSecret: string;
}

export class RotatedSecretDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    description:
      'The new secret, shown only in this response. The previous one keeps signing until previousSecretExpiresAt.',
  })
  @DeliberatelyServed('the new signing secret, shown once to whoever rotates it')
  signingSecret: string;
  @ApiProperty({ format: 'date-time' }) previousSecretExpiresAt: string;
}

export class WebhookListDto {
  @ApiProperty({ type: WebhookDto, isArray: true }) items: WebhookDto[];
  @ApiProperty() total: number;
}

export class TestEventDto {
  @ApiProperty({ example: 'evt_4f0c…' }) eventId: string;
  @ApiProperty({ example: 'webhook.test' }) type: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class AttemptDto {
  @ApiProperty() attemptNo: number;
  @ApiProperty({ format: 'date-time' }) attemptedAt: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'null when no HTTP answer arrived (timeout, refused, DNS)',
  })
  statusCode: number | null;
  @ApiProperty({ type: Number, nullable: true }) latencyMs: number | null;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'First 512 bytes of the answer' }) responseSnippet:
    string | null;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() eventId: string;
  @ApiProperty() eventType: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'cancelled'] }) status: string;
  @ApiProperty() attemptCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When the next automatic attempt is due, for a pending delivery whose last attempt failed: it is not ' +
      'made before this time, and a worker may start it a little later. Null when the delivery has ended ' +
      '(succeeded, failed or cancelled), has not been attempted yet, or while an attempt is in progress.',
  })
  nextAttemptAt: string | null;
  @ApiProperty({ type: AttemptDto, isArray: true }) attempts: AttemptDto[];
}

export class DeliveryListDto {
  @ApiProperty({ type: DeliveryDto, isArray: true }) items: DeliveryDto[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
  @ApiProperty() hasMore: boolean;
}

export class DeliveryListQueryDto extends CursorPageQueryDto {}
