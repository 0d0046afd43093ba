import { ProblemError, type FieldError, unprocessable } from '../../common/errors/problem';
import { addDays, todayUtc } from '../../common/validation/calendar-date';
import type { ProposalBooksRepository } from '../proposal-books.repository';

export interface Execution {
  executionRef: string;
  distributedReport?: { id: string; periodStart: string; periodEnd: string; distributedAt: string };
}

/**
 * One kind of proposal, in one file: what its request must satisfy, what the books must allow, and the
 * effect approval has. `I` is the request DTO, `P` the payload stored with the proposal.
 */
export interface ProposalKindRules<I, P> {
  /** Structural rules the DTO cannot express (one of two members, date order): 400 naming the fields. */
  validate(input: I): P;
  /** Semantic rules against the books: 422 naming the rule. With `lock`, the rows relied on are locked. */
  check(books: ProposalBooksRepository, fundId: string, payload: P, lock: boolean): Promise<P>;
  /** The effect of approval, inside the approval transaction (after `check` with lock). `ref` names the proposal. */
  execute(books: ProposalBooksRepository, fundId: string, ref: string, payload: P): Promise<Execution>;
  /**
   * Books into dated NAV inputs (`bookDated`): approval takes the fund's NAV-inputs lock before `check`,
   * so a publication in flight commits wholly before the check reads the closed-through date.
   */
  booksIntoNav?: true;
}

export const badShape = (errors: FieldError[]) =>
  new ProblemError('invalid_parameter', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);

/**
 * A booking's date against the fund's calendar (at staging and again at approval): after the
 * inception day, and after the last published NAV — the books are closed through it, and a correction
 * is booked after it, not into a period the investors were already told about.
 */
export async function checkBookingDate(
  books: ProposalBooksRepository,
  fundId: string,
  date: string,
  field: string,
): Promise<void> {
  withinHorizon(date, field);
  const { inception, closedThrough } = await books.bookingDates(fundId);
  // the inception day has no capital at its start: P&L or an expense booked on it could not be allocated
  // (the day's NAV run would fail, and every run after it)
  if (inception && date <= inception)
    throw unprocessable(`${field} ${date} is not after the fund's inception ${inception}`, [
      { field, message: `must be after the inception ${inception}` },
    ]);
  if (closedThrough && date <= closedThrough)
    throw unprocessable(
      `the books are closed through ${closedThrough} (a published NAV): date the booking after it, as a correction`,
      [{ field, message: `must be after ${closedThrough}, the last published NAV` }],
    );
}

/** How far ahead of today a booking may be dated: an accrual for the coming year, not a typo's 2999. */
export const BOOKING_HORIZON_DAYS = 366;

/**
 * A date at most a year ahead (422 naming the field). A journal entry dated 2999 became the
 * default as-of date of the trial balance and gl-detail, and an expense to 2999 accrued its amount
 * over a thousand years.
 */
export function withinHorizon(date: string, field: string): void {
  const latest = addDays(todayUtc(), BOOKING_HORIZON_DAYS);
  if (date > latest)
    throw unprocessable(`${field} ${date} is more than a year ahead: date it on or before ${latest}`, [
      { field, message: `must be on or before ${latest} (a year from today)` },
    ]);
}

/**
 * Books a dated effect (its kind says `booksIntoNav`: the approval holds the NAV-inputs lock since
 * before its checks), and marks the NAV to be redone from `date` when a complete run already valued
 * that day without it.
 */
export async function bookDated<T>(
  books: ProposalBooksRepository,
  fundId: string,
  date: string,
  book: () => Promise<T>,
): Promise<T> {
  const booked = await book();
  await books.restartNavFrom(fundId, date);
  return booked;
}
