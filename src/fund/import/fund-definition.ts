import { isIsoDate } from '../dates';
import { type ImportRowError } from './import-errors';

export interface ShareClassDefinition {
  name: string;
  currency: string;
  mgmtFeeAnnualRate: string;
  perfFeeRate: string;
  hurdleAnnualRate: string | null;
  crystallizationFrequency: string;
  feeExempt: boolean;
  status: string;
  launchDate: string;
  initialNavPerUnit: string;
}

export interface FundDefinition {
  name: string;
  baseCurrency: string;
  inceptionDate: string;
  aumTarget: string;
  administrator: string;
  cashConnection: string;
  dealing: { frequency: string; subscriptionNoticeDays: number; redemptionNoticeDays: number; settlementDays: number };
  shareClasses: ShareClassDefinition[];
  chartOfAccounts: { code: string; name: string }[];
}

const RATE = /^\d(\.\d{1,8})?$/;
const DECIMAL = /^\d{1,20}(\.\d{1,10})?$/;

/** Validates fund.json; every problem names its JSON path as the column. */
export function parseFundDefinition(text: string, file = 'fund.json'): { definition?: FundDefinition; errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const fail = (column: string, reason: string) => errors.push({ file, line: 1, column, reason });
  let raw: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    raw = JSON.parse(text);
  } catch (err) {
    fail('(document)', `is not valid JSON: ${(err as Error).message}`);
    return { errors };
  }
  const str = (path: string, v: unknown, re?: RegExp, what?: string): string => {
    if (typeof v !== 'string' || v.trim() === '') { fail(path, 'is required (a string)'); return ''; }
    if (re && !re.test(v)) fail(path, `must be ${what}, got "${v}"`);
    return v;
  };
  const int = (path: string, v: unknown): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 366) { fail(path, 'must be a whole number of days (0..366)'); return 0; }
    return v;
  };
  const date = (path: string, v: unknown) => {
    const s = str(path, v);
    if (s && !isIsoDate(s)) fail(path, `must be a calendar date YYYY-MM-DD, got "${s}"`);
    return s;
  };
  const definition: FundDefinition = {
    name: str('name', raw?.name),
    baseCurrency: str('baseCurrency', raw?.baseCurrency, /^[A-Z]{3}$/, 'a 3-letter currency code'),
    inceptionDate: date('inceptionDate', raw?.inceptionDate),
    aumTarget: str('aumTarget', raw?.aumTarget, DECIMAL, 'a decimal string'),
    administrator: str('administrator', raw?.administrator),
    cashConnection: str('cashConnection', raw?.cashConnection),
    dealing: {
      frequency: str('dealing.frequency', raw?.dealing?.frequency, /^(daily|weekly|monthly|quarterly)$/, 'daily, weekly, monthly or quarterly'),
      subscriptionNoticeDays: int('dealing.subscriptionNoticeDays', raw?.dealing?.subscriptionNoticeDays),
      redemptionNoticeDays: int('dealing.redemptionNoticeDays', raw?.dealing?.redemptionNoticeDays),
      settlementDays: int('dealing.settlementDays', raw?.dealing?.settlementDays),
    },
    shareClasses: [],
    chartOfAccounts: [],
  };
  if (!Array.isArray(raw?.shareClasses) || raw.shareClasses.length === 0) fail('shareClasses', 'must list at least one share class');
  for (const [i, c] of (Array.isArray(raw?.shareClasses) ? raw.shareClasses : []).entries()) {
    const p = `shareClasses[${i}]`;
    const hurdle = c?.hurdleAnnualRate ?? null;
    if (hurdle !== null) str(`${p}.hurdleAnnualRate`, hurdle, RATE, 'a rate as a fraction of 1 or null');
    if (typeof c?.feeExempt !== 'boolean') fail(`${p}.feeExempt`, 'must be true or false');
    definition.shareClasses.push({
      name: str(`${p}.name`, c?.name),
      currency: str(`${p}.currency`, c?.currency, /^[A-Z]{3}$/, 'a 3-letter currency code'),
      mgmtFeeAnnualRate: str(`${p}.mgmtFeeAnnualRate`, c?.mgmtFeeAnnualRate, RATE, 'a rate as a fraction of 1'),
      perfFeeRate: str(`${p}.perfFeeRate`, c?.perfFeeRate, RATE, 'a rate as a fraction of 1'),
      hurdleAnnualRate: hurdle,
      crystallizationFrequency: str(`${p}.crystallizationFrequency`, c?.crystallizationFrequency, /^(monthly|quarterly|semiannual|annual)$/, 'monthly, quarterly, semiannual or annual'),
      feeExempt: c?.feeExempt === true,
      status: str(`${p}.status`, c?.status, /^(open|closed|soft_closed)$/, 'open, closed or soft_closed'),
      launchDate: date(`${p}.launchDate`, c?.launchDate),
      initialNavPerUnit: str(`${p}.initialNavPerUnit`, c?.initialNavPerUnit, DECIMAL, 'a positive decimal string'),
    });
  }
  for (const [i, a] of (Array.isArray(raw?.chartOfAccounts) ? raw.chartOfAccounts : []).entries()) {
    definition.chartOfAccounts.push({ code: str(`chartOfAccounts[${i}].code`, a?.code, /^\d{4}$/, 'a 4-digit account code'), name: str(`chartOfAccounts[${i}].name`, a?.name) });
  }
  return errors.length ? { errors } : { definition, errors };
}
