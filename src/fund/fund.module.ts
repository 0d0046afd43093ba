import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NavRunService } from './nav/nav-run.service';
import { NavRunsController } from './nav/nav-runs.controller';

/** The fund's books: NAV runs (engine + persistence). Import it to run NAV or reach the books' services. */
@Module({
  controllers: [NavRunsController],
  providers: [{ provide: NavRunService, useFactory: (ds: DataSource) => new NavRunService(ds), inject: [getDataSourceToken()] }],
  exports: [NavRunService],
})
export class FundModule {}
