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
import { uuidParam } from '../common/validation/uuid-param';

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
      if (!UUID.test(navRunId)) throw notFound(`NAV run ${navRunId}`);
      await runs.lockInputsForPublication(fundId);
      refuseUnpublishable(navRunId, await runs.lockForPublication(fundId, navRunId));
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

/** Only a complete, unpublished run that no later booking or cut-short run has made stale. */
function refuseUnpublishable(
  navRunId: string,
  found: Awaited<ReturnType<NavRunRepository['lockForPublication']>>,
): void {
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
  if (found.restart_from !== null && found.restart_from <= found.valuation_date)
    throw new ProblemError(
      'invalid_state',
      `NAV run ${navRunId} (${found.valuation_date}) is stale: the NAV must be run again from ${found.restart_from} (a booking approved since, or a run cut short); run it, then publish the new run`,
    );
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
    @Param('id', uuidParam('id')) id: string,
    @NoBody() _none: unknown,
  ): Promise<NavPublicationDto> {
    return this.publication.publish(p, id);
  }
}
