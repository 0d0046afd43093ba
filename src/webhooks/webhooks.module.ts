import { Module } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryProcessor } from './delivery-processor';
import { EventOutbox } from './event-outbox';
import { OutboxDispatcher } from './outbox-dispatcher';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhooks: subscriptions (API), the event outbox (written by other modules inside their
 * transactions through EventOutbox), and — in worker and all roles — the outbox
 * dispatcher and the BullMQ delivery processor.
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    DeliveriesRepository,
    WebhooksService,
    EventOutbox,
    OutboxDispatcher,
    DeliveryProcessor,
  ],
  exports: [EventOutbox, WebhooksRepository],
})
export class WebhooksModule {}
