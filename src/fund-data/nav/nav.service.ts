import { Inject, Injectable } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor';
import { type CursorPageQueryDto } from '../../common/pagination/cursor-page-query.dto';
import { keysetPage } from '../../common/pagination/keyset-page';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { Decimal } from '../../fund/money';
import { administratorHistory, reconcile } from '../../fund/nav/reconciliation';
import { D, money, moneyOrNull, navPerUnitOrNull, ratio, units } from '../common/decimals';
import { assertOrdered } from '../common/query-params';
import { servedRunStatus } from '../common/run-status';
import { NavHistoryDto, NavHistoryQueryDto, ReconciliationDto, type ReconciliationRowDto } from './nav.dto';
import { NavRepository, type ReconciliationItemRow } from './nav.repository';

@Injectable()
export class NavService {
  constructor(
    private readonly repo: NavRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cursors: CursorCodec,
  ) {}

  async history(fundId: string, q: NavHistoryQueryDto): Promise<NavHistoryDto> {
    assertOrdered(q.from, q.to);
    // Bound to the fund and the window: a cursor of another window is not valid here.
    const kind = `fund-nav-history:${fundId}:${q.from ?? '*'}:${q.to ?? '*'}`;
    const limit = q.limit ?? 100;
    const pos =
      q.cursor === undefined ? null : this.cursors.decode(kind, q.cursor, { d: 'date', s: 'timestamp', i: 'uuid' });
    const [rows, total] = await Promise.all([
      this.repo.runsForFund(
        fundId,
        q.from ?? null,
        q.to ?? null,
        pos && { valuationDate: pos.d, startedAt: pos.s, id: pos.i },
        limit + 1,
      ),
      this.repo.runCount(fundId, q.from ?? null, q.to ?? null),
    ]);
    const page = keysetPage(rows, limit, (last) =>
      this.cursors.encode(kind, { d: last.valuation_date, s: last.started_key, i: last.id }),
    );
    return {
      items: page.rows.map((r) => ({
        navRunId: r.id,
        valuationDate: r.valuation_date,
        status: servedRunStatus(r.status, r.stale),
        failureReason: r.failure_reason,
        createdAt: new Date(r.started_at).toISOString(),
        completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
        grossAssetValue: r.status === 'failed' || r.status === 'running' ? null : moneyOrNull(r.gross_asset_value),
        netAssetValue: r.status === 'failed' || r.status === 'running' ? null : moneyOrNull(r.net_asset_value),
        shareClasses: r.classes.map((c) => ({
          name: c.name,
          navPerUnit: navPerUnitOrNull(c.navPerUnit),
          units: units(c.units),
          netAssetValue: money(c.netAssetValue),
        })),
      })),
      total,
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    };
  }

  /**
   * Shadow NAV (complete run) against the administrator's NAV on each date the administrator reported,
   * with the figures it replaced; and the valued month-ends it has not reported since its first NAV
   * (every page), read in the same snapshot.
   */
  async reconciliation(fundId: string, q: CursorPageQueryDto): Promise<ReconciliationDto> {
    const kind = `fund-nav-reconciliation:${fundId}`;
    const limit = q.limit ?? 100;
    const before = q.cursor === undefined ? null : this.cursors.decode(kind, q.cursor, { d: 'date' }).d;
    const tolerance = new D(this.config.navToleranceRatio);
    // one statement: the page and the awaited month-ends are one snapshot. A month-end after today is
    // not due; one that has passed is awaited once the shadow NAV valued it
    const { items: rows, awaiting } = await this.repo.reconciliation(
      fundId,
      before,
      limit + 1,
      new Date().toISOString().slice(0, 10),
    );
    const page = keysetPage(rows, limit, (last) => this.cursors.encode(kind, { d: last.valuation_date }));
    return {
      toleranceRatio: ratio(tolerance),
      items: page.rows.map((r) => ({ ...comparison(r, tolerance), ...history(r) })),
      awaitingAdministrator: awaiting.map((a) => ({
        valuationDate: a.valuation_date,
        shadowNav: money(a.shadow_nav),
        runStatus: a.stale ? ('stale' as const) : ('complete' as const),
      })),
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
    };
  }
}

type Comparison = Omit<ReconciliationRowDto, 'administratorNavImportedAt' | 'restatements'>;

/** The books' own reconciliation rule (difference = shadow − administrator, ratio over the administrator's NAV). */
function comparison(r: ReconciliationItemRow, tolerance: Decimal): Comparison {
  if (r.shadow_nav === null)
    return {
      valuationDate: r.valuation_date,
      shadowNav: null,
      administratorNav: money(r.administrator_nav),
      difference: null,
      differenceRatio: null,
      withinTolerance: false,
      status: 'not_valued',
    };
  const row = reconcile(r.valuation_date, new D(r.shadow_nav), new D(r.administrator_nav), tolerance);
  return r.stale ? { ...row, status: 'stale' } : row;
}

/** When the current administrator figure was imported, and the figures it replaced (restatements), latest first. */
function history(r: ReconciliationItemRow): Pick<ReconciliationRowDto, 'administratorNavImportedAt' | 'restatements'> {
  const h = administratorHistory(r.version_navs.map((nav, i) => ({ nav, importedAt: r.version_imported_at[i] })));
  return { administratorNavImportedAt: h.currentImportedAt, restatements: h.restatements };
}
