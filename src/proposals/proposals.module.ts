import { Module } from '@nestjs/common';
import { FundModule } from '../fund/fund.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminProposalsController } from './admin-proposals.controller';
import { ConsoleProposalsController } from './console-proposals.controller';
import { IdempotencyExpiryJob } from './idempotency-expiry.job';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { NavPublicationController, NavPublicationService } from './nav-publication';
import { ProposalBooksRepository } from './proposal-books.repository';
import { ProposalsController } from './proposals.controller';
import { ProposalsRepository } from './proposals.repository';
import { ProposalsService } from './proposals.service';

/** Propose endpoints, the maker's withdrawal, manager review, Idempotency-Key, NAV publication. */
@Module({
  imports: [FundModule, WebhooksModule],
  controllers: [ProposalsController, AdminProposalsController, ConsoleProposalsController, NavPublicationController],
  providers: [
    ProposalsRepository,
    ProposalBooksRepository,
    IdempotencyRepository,
    ProposalsService,
    IdempotencyService,
    IdempotencyExpiryJob,
    NavPublicationService,
  ],
})
export class ProposalsModule {}
