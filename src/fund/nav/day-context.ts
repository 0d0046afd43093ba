import { addDays } from '../dates';
import { ACCOUNTS } from '../ledger/chart-of-accounts';
import type { JournalEntryDraft } from '../ledger/journal-entry';
import { type Decimal, ZERO, sum } from '../money';
import { PositionBook } from '../portfolio/position-book';
import { cloneState } from './engine-state';
import type { ClassState, ConnectionTerms, DayInputs, EngineState, FundTerms, ShareClassTerms } from './engine-types';

/** A day the engine refuses to book (missing close, unknown connection...): the run fails with the message. */
export class DayFailed extends Error {}

/**
 * What every step of one valued day works on: the terms, the day's raw events, the state being moved
 * from the previous checkpoint (a copy; the previous state is never modified), the journal entries in
 * booking order, and the opening figures the later steps compare against.
 */
export interface DayContext {
  readonly terms: FundTerms;
  readonly previous: EngineState;
  readonly day: DayInputs;
  readonly date: string;
  readonly cashSymbol: string;
  readonly state: EngineState;
  readonly entries: JournalEntryDraft[];
  readonly book: PositionBook;
  /** The cash connection and the ledger account its cash sits in. */
  readonly bank: string;
  readonly bankAccount: string;
  readonly openingNavByClass: Map<string, Decimal>;
  readonly openingNav: Decimal;
  readonly openingAccrued: Map<string, Decimal>;
  /** Per class: the performance fee its lots with units have accrued and not crystallized. */
  readonly openingAccruedByClass: Map<string, Decimal>;
  readonly openingCapital: Map<string, Decimal>;
  /** Per investor and class (investorKey): the units held. */
  readonly openingUnits: Map<string, Decimal>;
}

export function openDay(terms: FundTerms, previous: EngineState, day: DayInputs, cashSymbol: string): DayContext {
  const date = day.date;
  if (previous.valuationDate !== null && addDays(previous.valuationDate, 1) !== date) {
    throw new DayFailed(`the previous complete run is for ${previous.valuationDate}; ${date} must follow it directly`);
  }
  const state = cloneState(previous);
  const bank = terms.cashConnection;
  const bankTerms = connectionTerms(terms, bank);
  const openingNavByClass = new Map([...state.classes.values()].map((c) => [c.classId, c.nav]));
  return {
    terms,
    previous,
    day,
    date,
    cashSymbol,
    state,
    entries: [],
    book: new PositionBook(state.positions, cashSymbol),
    bank,
    bankAccount: bankTerms.sourceType === 'bank' ? ACCOUNTS.cashAtBank : ACCOUNTS.cashAtVenues,
    openingNavByClass,
    openingNav: sum([...openingNavByClass.values()]),
    openingAccrued: new Map(state.lots.map((l) => [l.lotId, l.accrued])),
    openingAccruedByClass: totals(
      state.lots.filter((l) => l.units.gt(0)),
      (l) => l.classId,
      (l) => l.accrued,
    ),
    openingCapital: new Map(state.investorCapital),
    openingUnits: totals(
      state.lots,
      (l) => investorKey(l.investorId, l.classId),
      (l) => l.units,
    ),
  };
}

function totals<T>(items: T[], keyOf: (t: T) => string, valueOf: (t: T) => Decimal): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const t of items) out.set(keyOf(t), (out.get(keyOf(t)) ?? ZERO).plus(valueOf(t)));
  return out;
}

/** Appends a built entry (builders answer null for an entry with nothing to post). */
export function push(ctx: DayContext, entry: JournalEntryDraft | null): void {
  if (entry) ctx.entries.push(entry);
}

export const investorKey = (investorId: string, classId: string) => `${investorId}|${classId}`;

export function classState(state: EngineState, classId: string): ClassState {
  let c = state.classes.get(classId);
  if (!c) {
    c = { classId, units: ZERO, nav: ZERO, mgmtPayable: ZERO, perfCrystallizedUnpaid: ZERO };
    state.classes.set(classId, c);
  }
  return c;
}

export function connectionTerms(terms: FundTerms, code: string): ConnectionTerms {
  const c = terms.connections.get(code);
  if (!c) throw new DayFailed(`unknown connection ${code}`);
  return c;
}

export function className(terms: FundTerms, classId: string): string {
  return terms.classes.find((c: ShareClassTerms) => c.id === classId)?.name ?? classId;
}
