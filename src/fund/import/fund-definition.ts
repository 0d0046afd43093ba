import { isIsoDate } from '../dates';
import { type ImportRowError } from './import-errors';
import { DEFAULT_CHART } from '../ledger/chart-of-accounts';

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

/** A rate as a fraction of 1, at most 1: "2" for 2 % would be 200 % a year. */
const RATE = /^(0(\.\d{1,8})?|1(\.0{1,8})?)$/;
const RATE_WHAT = 'a rate as a fraction of 1 (0.02 for 2 %)';
const DECIMAL = /^\d{1,20}(\.\d{1,10})?$/;

/** Reads fields of one document, collecting a problem (named by JSON path) for each bad one. */
class FieldReader {
  readonly errors: ImportRowError[] = [];

  constructor(private readonly file: string) {}

  fail(column: string, reason: string): void {
    this.errors.push({ file: this.file, line: 1, column, reason });
  }

  str(path: string, v: unknown, re?: RegExp, what?: string): string {
    if (typeof v !== 'string' || v.trim() === '') {
      this.fail(path, 'is required (a string)');
      return '';
    }
    if (re && !re.test(v)) this.fail(path, `must be ${what}, got "${v}"`);
    return v;
  }

  int(path: string, v: unknown): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 366) {
      this.fail(path, 'must be a whole number of days (0..366)');
      return 0;
    }
    return v;
  }

  date(path: string, v: unknown): string {
    const s = this.str(path, v);
    if (s && !isIsoDate(s)) this.fail(path, `must be a calendar date YYYY-MM-DD, got "${s}"`);
    else if (s && (s < '1900-01-01' || s > '2199-12-31')) this.fail(path, `must be between 1900-01-01 and 2199-12-31`);
    return s;
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any -- parsed JSON of unknown shape, checked field by field */

/** Validates fund.json; every problem names its JSON path as the column. */
export function parseFundDefinition(
  text: string,
  file = 'fund.json',
): { definition?: FundDefinition; errors: ImportRowError[] } {
  const read = new FieldReader(file);
  let raw: any;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    read.fail('(document)', `is not valid JSON: ${(err as Error).message}`);
    return { errors: read.errors };
  }
  const definition: FundDefinition = {
    name: read.str('name', raw?.name),
    baseCurrency: read.str('baseCurrency', raw?.baseCurrency, /^[A-Z]{3}$/, 'a 3-letter currency code'),
    inceptionDate: read.date('inceptionDate', raw?.inceptionDate),
    aumTarget: read.str('aumTarget', raw?.aumTarget, DECIMAL, 'a decimal string'),
    administrator: read.str('administrator', raw?.administrator),
    cashConnection: read.str('cashConnection', raw?.cashConnection),
    dealing: parseDealing(read, raw?.dealing),
    shareClasses: [],
    chartOfAccounts: [],
  };
  if (!Array.isArray(raw?.shareClasses) || raw.shareClasses.length === 0)
    read.fail('shareClasses', 'must list at least one share class');
  for (const [i, c] of (Array.isArray(raw?.shareClasses) ? raw.shareClasses : []).entries()) {
    definition.shareClasses.push(parseShareClass(read, `shareClasses[${i}]`, c));
  }
  checkClasses(read, definition);
  for (const [i, a] of (Array.isArray(raw?.chartOfAccounts) ? raw.chartOfAccounts : []).entries()) {
    const code = read.str(`chartOfAccounts[${i}].code`, a?.code, /^\d{4}$/, 'a 4-digit account code');
    // entries rename the chart's accounts; a code outside it would be dropped without a word
    if (/^\d{4}$/.test(code) && !DEFAULT_CHART.some((c) => c.code === code))
      read.fail(`chartOfAccounts[${i}].code`, `names no account of the chart: ${code}`);
    definition.chartOfAccounts.push({ code, name: read.str(`chartOfAccounts[${i}].name`, a?.name) });
  }
  return read.errors.length ? { errors: read.errors } : { definition, errors: read.errors };
}

/**
 * Classes are named once, priced in the base currency (the books model no FX: a EUR class would show
 * USD figures under a EUR label) and launched at a positive price.
 */
function checkClasses(read: FieldReader, d: FundDefinition): void {
  d.shareClasses.forEach((c, i) => {
    if (d.shareClasses.findIndex((o) => o.name === c.name) !== i)
      read.fail(`shareClasses[${i}].name`, `names the class "${c.name}" a second time`);
    if (c.currency && d.baseCurrency && c.currency !== d.baseCurrency)
      read.fail(`shareClasses[${i}].currency`, `must be the base currency ${d.baseCurrency}: the books model no FX`);
    if (/^0*(\.0*)?$/.test(c.initialNavPerUnit))
      read.fail(`shareClasses[${i}].initialNavPerUnit`, 'must be greater than zero');
  });
}

function parseDealing(read: FieldReader, dealing: any): FundDefinition['dealing'] {
  return {
    frequency: read.str(
      'dealing.frequency',
      dealing?.frequency,
      /^(daily|weekly|monthly|quarterly)$/,
      'daily, weekly, monthly or quarterly',
    ),
    subscriptionNoticeDays: read.int('dealing.subscriptionNoticeDays', dealing?.subscriptionNoticeDays),
    redemptionNoticeDays: read.int('dealing.redemptionNoticeDays', dealing?.redemptionNoticeDays),
    settlementDays: read.int('dealing.settlementDays', dealing?.settlementDays),
  };
}

/** One entry of `shareClasses`, `p` its JSON path. */
function parseShareClass(read: FieldReader, p: string, c: any): ShareClassDefinition {
  const hurdle = c?.hurdleAnnualRate ?? null;
  if (hurdle !== null) read.str(`${p}.hurdleAnnualRate`, hurdle, RATE, `${RATE_WHAT} or null`);
  if (typeof c?.feeExempt !== 'boolean') read.fail(`${p}.feeExempt`, 'must be true or false');
  return {
    name: read.str(`${p}.name`, c?.name),
    currency: read.str(`${p}.currency`, c?.currency, /^[A-Z]{3}$/, 'a 3-letter currency code'),
    mgmtFeeAnnualRate: read.str(`${p}.mgmtFeeAnnualRate`, c?.mgmtFeeAnnualRate, RATE, RATE_WHAT),
    perfFeeRate: read.str(`${p}.perfFeeRate`, c?.perfFeeRate, RATE, RATE_WHAT),
    hurdleAnnualRate: hurdle,
    crystallizationFrequency: read.str(
      `${p}.crystallizationFrequency`,
      c?.crystallizationFrequency,
      /^(monthly|quarterly|semiannual|annual)$/,
      'monthly, quarterly, semiannual or annual',
    ),
    feeExempt: c?.feeExempt === true,
    status: read.str(`${p}.status`, c?.status, /^(open|closed|soft_closed)$/, 'open, closed or soft_closed'),
    launchDate: read.date(`${p}.launchDate`, c?.launchDate),
    initialNavPerUnit: read.str(`${p}.initialNavPerUnit`, c?.initialNavPerUnit, DECIMAL, 'a positive decimal string'),
  };
}
