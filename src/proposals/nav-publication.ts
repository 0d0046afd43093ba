import { Controller, HttpCode, Injectable, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CurrentPrincipal, RequiresScopes, SessionAccess } from '../common/auth/auth.decorators';
import { fundIdOf, type Principal } from '../common/auth/principal';
import { notFound, ProblemError } from '../common/errors/problem';
import { Returns } from '../common/redaction/redaction.interceptor';
import { RateLimitPolicy } from '../usage/rate-limit/rate-limit.decorator';
import { NavRunRepository } from '../fund/nav/nav-run.repository';
import { EventOutbox } from '../webhooks/event-outbox';
import { NavPublicationDto } from './dto/proposal.dto';
import { NoBody } from '../common/validation/parameterless';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Publishing a complete NAV run: the mark and nav.published are written in one transaction. */
@Injectable()
export class NavPublicationService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly runs: NavRunRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async publish(p: Principal, navRunId: string): Promise<NavPublicationDto> {
    const fundId = fundIdOf(p);
    return this.db.transaction(async (m) => {
      const runs = this.runs.with(m);
      const found = UUID.test(navRunId) ? await runs.lockForPublication(fundId, navRunId) : null;
      if (!found) throw notFound(`NAV run ${navRunId}`);
      if (found.status !== 'complete')
        throw new ProblemError(
          'invalid_state',
          `NAV run ${navRunId} is ${found.status}; only a complete run can be published`,
        );
      if (found.published_at)
        throw new ProblemError(
          'invalid_state',
          `NAV run ${navRunId} was already published at ${new Date(found.published_at).toISOString()}`,
        );
      const run = await runs.markPublished(fundId, navRunId, p.keyId, p.userId);
      const view: NavPublicationDto = {
        navRunId: run.id,
        valuationDate: run.valuation_date,
        status: run.status,
        netAssetValue: run.net_asset_value,
        publishedAt: new Date(run.published_at).toISOString(),
      };
      await this.outbox.emit(m, fundId, 'nav.published', { ...view });
      return view;
    });
  }
}

@ApiTags('admin: NAV')
@Controller('api/v1/admin/nav-runs')
@RequiresScopes('nav:publish')
@SessionAccess()
@RateLimitPolicy('fund-minute')
export class NavPublicationController {
  constructor(private readonly publication: NavPublicationService) {}

  @Post(':id/publish')
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish a complete NAV run (once); emits nav.published' })
  @Returns(NavPublicationDto)
  publish(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @NoBody() _none: unknown,
  ): Promise<NavPublicationDto> {
    return this.publication.publish(p, id);
  }
}
