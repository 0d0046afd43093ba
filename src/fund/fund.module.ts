import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JournalRepository } from './ledger/journal.repository';
import { NavJobsRepository } from './nav/nav-jobs.repository';
import { NavRunRepository } from './nav/nav-run.repository';
import { NavRunService } from './nav/nav-run.service';
import { NavJobsController, NavRunsController } from './nav/nav-runs.controller';
import { NavJobQueue } from './nav/nav-job.queue';
import { NavJobsService } from './nav/nav-jobs.service';

/** The fund's books: NAV runs (engine + persistence, admin jobs on BullMQ). Import it to run NAV or reach the books' services. */
@Module({
  controllers: [NavRunsController, NavJobsController],
  providers: [
    { provide: NavRunService, useFactory: (ds: DataSource) => new NavRunService(ds), inject: [getDataSourceToken()] },
    JournalRepository,
    NavRunRepository,
    NavJobsRepository,
    NavJobQueue,
    NavJobsService,
  ],
  exports: [NavRunService, JournalRepository, NavRunRepository],
})
export class FundModule {}
