import { ProblemError, unprocessable } from '../../common/errors/problem';
import { todayUtc } from '../../common/validation/calendar-date';
import type { LpReportProposalDto } from '../dto/propose.dto';
import type { ProposalBooksRepository } from '../proposal-books.repository';
import { type ProposalKindRules, badShape } from './kind';

/** Either an existing draft to distribute, or a new report for a period. */
export type LpReportPayload =
  { lpReportId: string } | { lpReportId: null; periodStart: string; periodEnd: string; narrative: string };

export const lpReport: ProposalKindRules<LpReportProposalDto, LpReportPayload> = {
  validate(b) {
    const { periodStart, periodEnd, narrative } = b;
    if (b.lpReportId !== undefined) {
      if ([periodStart, periodEnd, narrative].some((v) => v !== undefined)) {
        throw badShape([
          { field: 'lpReportId', message: 'give either lpReportId or periodStart, periodEnd and narrative, not both' },
        ]);
      }
      return { lpReportId: b.lpReportId.toLowerCase() };
    }
    if (periodStart === undefined || periodEnd === undefined || narrative === undefined) {
      const missing = (['periodStart', 'periodEnd', 'narrative'] as const).filter((k) => b[k] === undefined);
      throw new ProblemError(
        'missing_parameter',
        `${missing.join(', ')} required for a new report (or give lpReportId)`,
        missing.map((field) => ({ field, message: 'is required' })),
      );
    }
    if (periodEnd < periodStart) throw badShape([{ field: 'periodEnd', message: 'must not be before periodStart' }]);
    return { lpReportId: null, periodStart, periodEnd, narrative };
  },

  // One distributed report per period, whichever way it comes: at approval the books lock serializes
  // the check with the other approvals' inserts (two approvals at once both passed an unlocked check).
  async check(books, fundId, p, lock) {
    if (p.lpReportId !== null) {
      const draft = await books.lpReport(fundId, p.lpReportId, lock);
      if (draft === null)
        throw unprocessable(`unknown LP report ${p.lpReportId}`, [
          { field: 'lpReportId', message: 'unknown LP report' },
        ]);
      if (draft.status === 'distributed') {
        throw unprocessable(`report already distributed: LP report ${p.lpReportId}`, [
          { field: 'lpReportId', message: 'already distributed' },
        ]);
      }
      await refuseSecondForPeriod(books, fundId, draft.periodStart, draft.periodEnd, lock, 'lpReportId');
      return p;
    }
    await checkPeriod(books, fundId, p.periodStart, p.periodEnd);
    await refuseSecondForPeriod(books, fundId, p.periodStart, p.periodEnd, lock, 'periodEnd');
    return p;
  },

  async execute(books, fundId, ref, p) {
    let r;
    if (p.lpReportId !== null) {
      r = await books.distributeDraft(fundId, p.lpReportId);
      if (!r) throw unprocessable(`report already distributed: LP report ${p.lpReportId}`);
    } else {
      r = await books.insertDistributedReport(fundId, ref, {
        periodStart: p.periodStart,
        periodEnd: p.periodEnd,
        preview: narrativePreview(p.narrative),
      });
    }
    return {
      executionRef: `lp-report:${r.id}`,
      distributedReport: {
        id: r.id,
        periodStart: r.period_start,
        periodEnd: r.period_end,
        distributedAt: new Date(r.distributed_at).toISOString(),
      },
    };
  },
};

/** A report covers part of the fund's life that has ended: from its inception, up to today at the latest. */
async function checkPeriod(books: ProposalBooksRepository, fundId: string, start: string, end: string): Promise<void> {
  const { inception } = await books.bookingDates(fundId);
  if (inception && start < inception)
    throw unprocessable(`periodStart ${start} is before the fund's inception ${inception}`, [
      { field: 'periodStart', message: `must be on or after the inception ${inception}` },
    ]);
  const today = todayUtc();
  if (end > today)
    throw unprocessable(`periodEnd ${end} has not come yet: a report covers a period that has ended`, [
      { field: 'periodEnd', message: `must be on or before today (${today})` },
    ]);
}

async function refuseSecondForPeriod(
  books: ProposalBooksRepository,
  fundId: string,
  periodStart: string,
  periodEnd: string,
  lock: boolean,
  field: 'lpReportId' | 'periodEnd',
): Promise<void> {
  const dup = await books.distributedReportFor(fundId, periodStart, periodEnd, lock);
  if (dup !== null) {
    throw unprocessable(`report already distributed for ${periodStart}..${periodEnd} (LP report ${dup})`, [
      { field, message: 'a report for this period was already distributed' },
    ]);
  }
}

/** Characters (code points) of a distributed report's preview; the whole narrative stays in its proposal. */
export const PREVIEW_LENGTH = 1000;

/**
 * The preview of a narrative: itself when short, else cut at the last space within the limit
 * (mid-word only when a word fills the last fifth) and ended with an ellipsis. Code points, never
 * half a surrogate pair.
 */
export function narrativePreview(narrative: string): string {
  const chars = Array.from(narrative.trim());
  if (chars.length <= PREVIEW_LENGTH) return chars.join('');
  const head = chars.slice(0, PREVIEW_LENGTH - 1).join('');
  const space = head.search(/\s\S*$/);
  return `${(space >= head.length * 0.8 ? head.slice(0, space) : head).trimEnd()}…`;
}
