import { type Fixed, fixedCents, fixedPct, numberToFixed } from './fixed';
import { DISCLAIMER, dec, ratio } from './numeric';
import {
  CASH_CLASSES,
  concentrationOf,
  exposureOf,
  groupPositions,
  type GroupRow,
  parsePositions,
  SAMPLE_POSITIONS_CSV,
} from './positions';
import { csvDigest, type InputMethod, type TextDigest } from './text-input';

export interface ExposureAnalysisInput {
  /** `Asset,Value,Venue,Class`, values in USD, shorts negative. */
  positionsCsv: string;
  /** Ratios are over this NAV when given, else over the sum of all values (long − short + cash). */
  navUsd: number | null;
  inputMethod: InputMethod;
}

export const EXPOSURE_ANALYSIS_DEFAULTS: ExposureAnalysisInput = {
  positionsCsv: SAMPLE_POSITIONS_CSV,
  navUsd: null,
  inputMethod: 'manual',
};

export interface ExposureAnalysisAnswer {
  assumptions: {
    positionsCsv: TextDigest;
    navUsd: number | null;
    inputMethod: InputMethod;
    ratioBasis: 'navUsd' | 'sumOfValues';
    ratioBasisUsd: number;
    cashClasses: readonly string[];
  };
  positionsCount: number;
  exposure: {
    longUsd: number;
    shortUsd: number;
    grossUsd: number;
    netUsd: number;
    cashUsd: number;
    longPct: number | null;
    shortPct: number | null;
    grossPct: number | null;
    netPct: number | null;
    cashPct: number | null;
  };
  concentration: {
    assetCount: number;
    top5: { asset: string; netUsd: number; grossUsd: number; weightPct: number }[];
    top5WeightPct: number;
    largestWeightPct: number;
    herfindahlIndex: number;
    effectivePositions: number | null;
  };
  byClass: GroupRow[];
  byVenue: GroupRow[];
  disclaimer: string;
}

/**
 * Exposure of a position list. Concentration is over non-cash assets, each weighted by its net
 * exposure (|Σ signed value| of its rows, so a hedged pair nets out) over Σ |net| of all of them;
 * the Herfindahl index is Σ weight² on a 0..1 scale and 1/HHI the effective number of positions.
 * byClass and byVenue stay gross (a venue holds both legs). Percentages are over `navUsd`, or
 * the sum of values; null when that basis is ≤ 0.
 */
export function exposureAnalysis(input: ExposureAnalysisInput): ExposureAnalysisAnswer {
  const positions = parsePositions('positionsCsv', input.positionsCsv);
  const e = exposureOf(positions);
  const basis = input.navUsd === null ? e.sumOfValues : numberToFixed(input.navUsd);
  const over = (v: Fixed) => fixedPct(v, basis);
  const c = concentrationOf(positions);
  const top5 = c.assets.slice(0, 5);
  const hhi = c.total === 0n ? dec(0) : dec(c.squares.toString()).div(dec((c.total * c.total).toString()));
  return {
    assumptions: {
      positionsCsv: csvDigest(input.positionsCsv, SAMPLE_POSITIONS_CSV, positions.length),
      navUsd: input.navUsd,
      inputMethod: input.inputMethod,
      ratioBasis: input.navUsd === null ? 'sumOfValues' : 'navUsd',
      ratioBasisUsd: fixedCents(basis),
      cashClasses: CASH_CLASSES,
    },
    positionsCount: positions.length,
    exposure: {
      longUsd: fixedCents(e.long),
      shortUsd: fixedCents(e.short),
      grossUsd: fixedCents(e.gross),
      netUsd: fixedCents(e.net),
      cashUsd: fixedCents(e.cash),
      longPct: over(e.long),
      shortPct: over(e.short),
      grossPct: over(e.gross),
      netPct: over(e.net),
      cashPct: over(e.cash),
    },
    concentration: {
      assetCount: c.assets.length,
      top5: top5.map((a) => ({
        asset: a.asset,
        netUsd: fixedCents(a.net),
        grossUsd: fixedCents(a.gross),
        weightPct: fixedPct(a.exposure, c.total) ?? 0,
      })),
      top5WeightPct:
        fixedPct(
          top5.reduce((acc, a) => acc + a.exposure, 0n),
          c.total,
        ) ?? 0,
      largestWeightPct: top5.length > 0 ? (fixedPct(top5[0].exposure, c.total) ?? 0) : 0,
      herfindahlIndex: ratio(hhi, 6),
      effectivePositions: hhi.isZero() ? null : ratio(dec(1).div(hhi), 2),
    },
    byClass: groupPositions(positions, (p) => p.assetClass),
    byVenue: groupPositions(positions, (p) => p.venue),
    disclaimer: DISCLAIMER,
  };
}
