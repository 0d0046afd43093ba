import { Module } from '@nestjs/common';
import { ReadReplica } from '../database/read-replica';
import { FundModule } from '../fund/fund.module';
import { OrderedReads } from './common/ordered-read.repository';
import { AnswerCache } from './common/answer-cache';
import { BooksRepository } from './common/books.repository';
import { LiveBookService } from './common/live-book.service';
import { InvestorsController } from './investors/investors.controller';
import { InvestorsRepository } from './investors/investors.repository';
import { InvestorsService } from './investors/investors.service';
import { LedgerController } from './ledger/ledger.controller';
import { LedgerRepository } from './ledger/ledger.repository';
import { LedgerService } from './ledger/ledger.service';
import { NavController } from './nav/nav.controller';
import { NavRepository } from './nav/nav.repository';
import { NavService } from './nav/nav.service';
import { OverviewController } from './overview/overview.controller';
import { FundProfileRepository } from './overview/overview.repository';
import { OverviewService } from './overview/overview.service';
import { PositionsController } from './positions/positions.controller';
import { PositionsRepository } from './positions/positions.repository';
import { PositionsService } from './positions/positions.service';
import { ReportingController } from './reporting/reporting.controller';
import { ReportingRepository } from './reporting/reporting.repository';
import { ReportingService } from './reporting/reporting.service';
import { AttributionService } from './risk/attribution.service';
import { PerformanceService } from './risk/performance.service';
import { RiskController } from './risk/risk.controller';
import { RiskRepository } from './risk/risk.repository';
import { StressService } from './risk/stress.service';
import { VarService } from './risk/var.service';
import { TradesController } from './trades/trades.controller';
import { TradesRepository } from './trades/trades.repository';
import { TradesService } from './trades/trades.service';

/** The 25 read endpoints under /api/v1/fund (scope fund:read, the key's own fund only). */
export const FUND_DATA_SERVICES = [
  OverviewService,
  PositionsService,
  VarService,
  StressService,
  PerformanceService,
  AttributionService,
  LedgerService,
  InvestorsService,
  ReportingService,
  TradesService,
  NavService,
];

@Module({
  imports: [FundModule],
  controllers: [
    OverviewController,
    PositionsController,
    RiskController,
    LedgerController,
    InvestorsController,
    ReportingController,
    TradesController,
    NavController,
  ],
  providers: [
    ReadReplica,
    OrderedReads,
    AnswerCache,
    BooksRepository,
    LiveBookService,
    FundProfileRepository,
    PositionsRepository,
    RiskRepository,
    LedgerRepository,
    InvestorsRepository,
    ReportingRepository,
    TradesRepository,
    NavRepository,
    ...FUND_DATA_SERVICES,
  ],
  exports: [...FUND_DATA_SERVICES, LiveBookService],
})
export class FundDataModule {}
