import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  DeliveryDto,
  DeliveryListDto,
  DeliveryListQueryDto,
  RotatedSecretDto,
  TestEventDto,
  UpdateWebhookDto,
  WebhookDto,
  WebhookListDto,
} from './dto/webhook.dto';
import { MAX_SUBSCRIPTIONS_PER_FUND, WebhooksService } from './webhooks.service';
import { NoBody, NoQuery } from '../common/validation/parameterless';
import { uuidParam } from '../common/validation/uuid-param';

const uuid = uuidParam('id');

@ApiTags('webhooks')
@Controller('api/v1/webhooks')
@RequiresScopes('webhooks:manage')
@SessionAccess()
@RateLimitPolicy('fund-minute')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({
    summary: `Subscribe a URL to event types of this fund (at most ${MAX_SUBSCRIPTIONS_PER_FUND} subscriptions per fund); the whsec_ signing secret is shown once`,
  })
  @Returns(CreatedWebhookDto, { status: 201 })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookDto): Promise<CreatedWebhookDto> {
    return this.webhooks.create(p, body);
  }

  @Get()
  @ApiOperation({ summary: 'Subscriptions of this fund, all of them (secrets are never shown again)' })
  @Returns(WebhookListDto)
  list(@CurrentPrincipal() p: Principal, @NoQuery() _none: unknown): Promise<WebhookListDto> {
    return this.webhooks.list(p);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One subscription of this fund (its secret is never shown again)' })
  @Returns(WebhookDto)
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @NoQuery() _none: unknown): Promise<WebhookDto> {
    return this.webhooks.get(p, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change URL, event types or description; enabled=true re-enables a subscription disabled by a 410',
  })
  @Returns(WebhookDto)
  update(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookDto> {
    return this.webhooks.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a subscription; its pending deliveries are cancelled' })
  @Returns(WebhookDto, { status: 204, description: 'Deleted; pending deliveries are cancelled' })
  async remove(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    await this.webhooks.remove(p, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'New secret (shown once); the previous one keeps signing for 24 h (two signatures)' })
  @Returns(RotatedSecretDto)
  rotate(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @NoBody() _none: unknown,
  ): Promise<RotatedSecretDto> {
    return this.webhooks.rotate(p, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Queue a signed webhook.test event to this subscription' })
  @Returns(TestEventDto, { status: 202 })
  test(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @NoBody() _none: unknown,
  ): Promise<TestEventDto> {
    return this.webhooks.sendTest(p, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary:
      'Deliveries, most recent first, each with every attempt (time, status code, latency, error, response snippet)',
  })
  @Returns(DeliveryListDto)
  deliveries(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Query() q: DeliveryListQueryDto,
  ): Promise<DeliveryListDto> {
    return this.webhooks.deliveries(p, id, q.limit, q.cursor);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Send an ended delivery again by hand — failed, cancelled, or succeeded and lost by the receiver — with the same webhook-id and body (a new round of the retry schedule; 409 while pending)',
  })
  @Returns(DeliveryDto, { status: 202 })
  retry(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Param('deliveryId', uuidParam('deliveryId')) deliveryId: string,
    @NoBody() _none: unknown,
  ): Promise<DeliveryDto> {
    return this.webhooks.retry(p, id, deliveryId);
  }
}
