import { Decimal, ZERO } from '../money';
import { type EngineState, type LotState } from './engine-types';

export function emptyState(): EngineState {
  return {
    valuationDate: null,
    positions: new Map(),
    unrealized: ZERO,
    stableUnrealized: ZERO,
    accruedExpenses: ZERO,
    otherNetAssets: ZERO,
    classes: new Map(),
    lots: [],
    investorCapital: new Map(),
    redemptionPayables: [],
  };
}

/** Decimals are immutable; only the containers and the mutable records need copying. */
export function cloneState(s: EngineState): EngineState {
  return {
    valuationDate: s.valuationDate,
    positions: new Map([...s.positions].map(([k, p]) => [k, { ...p }])),
    unrealized: s.unrealized,
    stableUnrealized: s.stableUnrealized,
    accruedExpenses: s.accruedExpenses,
    otherNetAssets: s.otherNetAssets,
    classes: new Map([...s.classes].map(([k, c]) => [k, { ...c }])),
    lots: s.lots.map((l) => ({ ...l })),
    investorCapital: new Map(s.investorCapital),
    redemptionPayables: s.redemptionPayables.map((r) => ({ ...r })),
  };
}

/** The checkpoint stored with a complete run: decimals as strings, never JS numbers. */
export function serializeState(s: EngineState): unknown {
  const str = (d: Decimal) => d.toString();
  return {
    valuationDate: s.valuationDate,
    positions: [...s.positions.values()].map((p) => ({
      connection: p.connection,
      symbol: p.symbol,
      quantity: str(p.quantity),
      cost: str(p.cost),
    })),
    unrealized: str(s.unrealized),
    stableUnrealized: str(s.stableUnrealized),
    accruedExpenses: str(s.accruedExpenses),
    otherNetAssets: str(s.otherNetAssets),
    classes: [...s.classes.values()].map((c) => ({
      classId: c.classId,
      units: str(c.units),
      nav: str(c.nav),
      mgmtPayable: str(c.mgmtPayable),
      perfCrystallizedUnpaid: str(c.perfCrystallizedUnpaid),
    })),
    lots: s.lots.map((l) => ({
      lotId: l.lotId,
      flowId: l.flowId,
      investorId: l.investorId,
      classId: l.classId,
      issueDate: l.issueDate,
      issueNavPerUnit: str(l.issueNavPerUnit),
      unitsIssued: str(l.unitsIssued),
      units: str(l.units),
      hwmPerUnit: str(l.hwmPerUnit),
      hwmDate: l.hwmDate,
      accrued: str(l.accrued),
    })),
    investorCapital: [...s.investorCapital].map(([key, v]) => [key, str(v)]),
    redemptionPayables: s.redemptionPayables.map((r) => ({
      flowId: r.flowId,
      ref: r.ref,
      amount: str(r.amount),
      payDate: r.payDate,
    })),
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function deserializeState(raw: any): EngineState {
  const d = (v: string) => new Decimal(v);
  return {
    valuationDate: raw.valuationDate,
    positions: new Map(
      raw.positions.map((p: any) => [
        `${p.connection}|${p.symbol}`,
        { connection: p.connection, symbol: p.symbol, quantity: d(p.quantity), cost: d(p.cost) },
      ]),
    ),
    unrealized: d(raw.unrealized),
    stableUnrealized: d(raw.stableUnrealized ?? '0'),
    accruedExpenses: d(raw.accruedExpenses),
    otherNetAssets: d(raw.otherNetAssets),
    classes: new Map(
      raw.classes.map((c: any) => [
        c.classId,
        {
          classId: c.classId,
          units: d(c.units),
          nav: d(c.nav),
          mgmtPayable: d(c.mgmtPayable),
          perfCrystallizedUnpaid: d(c.perfCrystallizedUnpaid),
        },
      ]),
    ),
    lots: raw.lots.map((l: any): LotState => ({
      lotId: l.lotId,
      flowId: l.flowId,
      investorId: l.investorId,
      classId: l.classId,
      issueDate: l.issueDate,
      issueNavPerUnit: d(l.issueNavPerUnit),
      unitsIssued: d(l.unitsIssued),
      units: d(l.units),
      hwmPerUnit: d(l.hwmPerUnit),
      hwmDate: l.hwmDate,
      accrued: d(l.accrued),
    })),
    investorCapital: new Map(raw.investorCapital.map(([k, v]: [string, string]) => [k, d(v)])),
    redemptionPayables: raw.redemptionPayables.map((r: any) => ({
      flowId: r.flowId,
      ref: r.ref,
      amount: d(r.amount),
      payDate: r.payDate,
    })),
  };
}
