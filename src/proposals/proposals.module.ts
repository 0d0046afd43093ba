import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminProposalsController } from './admin-proposals.controller';
import { IdempotencyExpiryJob } from './idempotency-expiry.job';
import { IdempotencyService } from './idempotency.service';
import { NavPublicationController, NavPublicationService } from './nav-publication';
import { ProposalsController } from './proposals.controller';
import { ProposalsRepository } from './proposals.repository';
import { ProposalsService } from './proposals.service';

/** Propose endpoints, manager review, Idempotency-Key, NAV publication. */
@Module({
  imports: [WebhooksModule],
  controllers: [ProposalsController, AdminProposalsController, NavPublicationController],
  providers: [ProposalsRepository, ProposalsService, IdempotencyService, IdempotencyExpiryJob, NavPublicationService],
})
export class ProposalsModule {}
