import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import { CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { QueryInteger } from '../../common/validation/query-integer';

export class UsageQueryDto {
  @ApiPropertyOptional({ format: 'date', description: 'First day (UTC), default 29 days before `to`' })
  @IsOptional()
  @IsCalendarDate()
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Last day (UTC), default today' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export class UsageDayDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty() requests: number;
  @ApiProperty() errors: number;
}

export class UsageRouteDto {
  @ApiProperty({ example: 'GET' }) method: string;
  @ApiProperty({ example: '/api/v1/fund/overview' }) route: string;
  @ApiProperty() requests: number;
  @ApiProperty() errors: number;
}

export class RateWindowDto {
  @ApiProperty({ example: 'fund-minute' }) policy: string;
  @ApiProperty() limit: number;
  @ApiProperty() used: number;
  @ApiProperty() remaining: number;
  @ApiProperty({ description: 'seconds until the window resets' }) reset: number;
  @ApiProperty() windowSeconds: number;
}

export class UsageDto {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      "The calling key; null for a console session (its figures cover the person's keys on the fund and their console requests)",
  })
  keyId: string | null;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty() totalRequests: number;
  @ApiProperty() totalErrors: number;
  @ApiProperty({ type: UsageDayDto, isArray: true }) days: UsageDayDto[];
  @ApiProperty({ type: UsageRouteDto, isArray: true }) routes: UsageRouteDto[];
  @ApiProperty({
    type: RateWindowDto,
    isArray: true,
    description: 'current windows per policy (this request included)',
  })
  rateLimits: RateWindowDto[];
  @ApiProperty({
    type: RateWindowDto,
    description:
      "the calculator daily cap and its use: the key's, or for a console session the caller's address's keyless day (the free web tools)",
  })
  calculatorDaily: RateWindowDto;
}

export class ActivityQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() keyId?: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsCalendarDate() from?: string;
  @ApiPropertyOptional({ format: 'date' }) @IsOptional() @IsCalendarDate() to?: string;

  @ApiPropertyOptional({
    description: 'Only requests to this route template (e.g. /api/v1/fund/trades) or MCP tool name',
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  route?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 100,
    maximum: 599,
    description: 'Only answers with this HTTP status',
  })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(100)
  @Max(599)
  status?: number;
}

export class ActivityItemDto {
  @ApiProperty() id: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty() requestId: string;
  @ApiProperty({ type: String, nullable: true }) keyId: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The connected OAuth app (its client's self-chosen name) whose key made the request; null otherwise",
  })
  app: string | null;
  @ApiProperty({ type: String, nullable: true }) accountId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The person who acted (key owner or console session)' })
  userId: string | null;
  @ApiProperty({ example: 'GET' }) method: string;
  @ApiProperty({ example: '/api/v1/fund/trades' }) route: string;
  @ApiProperty({ type: String, nullable: true, description: 'MCP tool name for tool calls' }) tool: string | null;
  @ApiProperty() status: number;
  @ApiProperty({ example: '1.250' }) durationMs: string;
  @ApiProperty({ type: String, nullable: true }) clientIp: string | null;
  @ApiProperty({ type: String, nullable: true }) userAgent: string | null;
}

export class ActivityPageDto {
  @ApiProperty({ type: ActivityItemDto, isArray: true }) items: ActivityItemDto[];
  @ApiProperty({ nullable: true, type: String }) nextCursor: string | null;
  @ApiProperty() hasMore: boolean;
}

export class ActivityAppDto {
  @ApiProperty({ format: 'uuid', description: 'The key its requests are made with: filter the activity listing by it' })
  keyId: string;
  @ApiProperty({ description: "The app's name (its client's self-chosen name)" }) name: string;
  @ApiProperty({ format: 'uuid', description: 'The person who connected it' }) userId: string;
  @ApiProperty({ format: 'date-time' }) connectedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disconnectedAt: string | null;
}

export class ActivityAppsDto {
  @ApiProperty({ type: ActivityAppDto, isArray: true }) items: ActivityAppDto[];
}
