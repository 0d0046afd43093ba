import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { type DataSource, type QueryRunner } from 'typeorm';
import { fundIdForSlug, fundScopedId } from '../ids';
import { chartWithOverrides } from '../ledger/chart-of-accounts';
import { CSV_FILES, type CsvFileSpec, type ImportContext } from './csv-files';
import { type FundDefinition, parseFundDefinition } from './fund-definition';
import { FundImportError, type ImportRowError } from './import-errors';
import { RowReader } from './row-validation';
import { STRESS_PRESETS } from './stress-presets';

export interface FundImportReport {
  fundId: string;
  slug: string;
  created: boolean;
  files: { file: string; rows: number; inserted: number }[];
}

const BATCH_ROWS = 5000;
const MAX_ERRORS = 50;

/**
 * Imports a fund's folder of raw events in ONE transaction: a file with a bad row imports
 * nothing. Rows are streamed and inserted in batches with ON CONFLICT DO NOTHING on their
 * natural keys, so re-importing the same rows changes nothing.
 */
export async function importFundFolder(ds: DataSource, slug: string, dir: string, options: { synthetic?: boolean } = {}): Promise<FundImportReport> {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug)) throw new FundImportError([{ file: '(arguments)', line: 0, column: 'fund', reason: `"${slug}" is not a valid fund slug` }]);
  if (!existsSync(dir)) throw new FundImportError([{ file: dir, line: 0, column: '(folder)', reason: 'does not exist' }]);
  const qr = ds.createQueryRunner();
  await qr.connect();
  await qr.startTransaction();
  try {
    const report = await importInTransaction(qr, slug, dir, options);
    await qr.commitTransaction();
    return report;
  } catch (err) {
    await qr.rollbackTransaction();
    throw err;
  } finally {
    await qr.release();
  }
}

async function importInTransaction(qr: QueryRunner, slug: string, dir: string, options: { synthetic?: boolean }): Promise<FundImportReport> {
  const fundJson = join(dir, 'fund.json');
  let fund = (await qr.query(`SELECT id, base_currency, administrator FROM funds WHERE slug = $1 FOR UPDATE`, [slug]))[0];
  let created = false;
  if (existsSync(fundJson)) {
    const { definition, errors } = parseFundDefinition(readFileSync(fundJson, 'utf8'));
    if (!definition) throw new FundImportError(errors);
    if (!fund) {
      created = true;
      fund = { id: fundIdForSlug(slug), base_currency: definition.baseCurrency, administrator: definition.administrator };
    } else if (fund.base_currency.trim() !== definition.baseCurrency) {
      throw new FundImportError([{ file: 'fund.json', line: 1, column: 'baseCurrency', reason: `the fund's base currency is ${fund.base_currency}; it cannot change` }]);
    }
    await upsertFund(qr, fund.id, slug, definition, options.synthetic ?? false);
    fund.administrator = definition.administrator;
  } else if (!fund) {
    throw new FundImportError([{ file: 'fund.json', line: 0, column: '(file)', reason: `is required to create the new fund "${slug}"` }]);
  }
  const ctx = await loadContext(qr, fund.id, fund.base_currency.trim(), fund.administrator ?? '');
  const files: FundImportReport['files'] = [];
  for (const spec of CSV_FILES) {
    const path = join(dir, spec.file);
    if (!existsSync(path)) continue;
    files.push(await importCsv(qr, spec, path, ctx));
    if (spec.reloadsContext) Object.assign(ctx, await loadContext(qr, fund.id, ctx.baseCurrency, ctx.administrator));
  }
  const cash = (await qr.query(`SELECT cash_connection_code FROM funds WHERE id = $1`, [fund.id]))[0].cash_connection_code;
  if (cash && !ctx.connections.has(cash)) {
    throw new FundImportError([{ file: 'fund.json', line: 1, column: 'cashConnection', reason: `names a connection "${cash}" that connections.csv does not define` }]);
  }
  return { fundId: fund.id, slug, created, files };
}

async function upsertFund(qr: QueryRunner, fundId: string, slug: string, d: FundDefinition, synthetic: boolean): Promise<void> {
  await qr.query(
    `INSERT INTO funds (id, slug, name, base_currency, is_synthetic, inception_date, aum_target, administrator, cash_connection_code,
                        dealing_frequency, subscription_notice_days, redemption_notice_days, settlement_days)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, is_synthetic = funds.is_synthetic OR EXCLUDED.is_synthetic,
       inception_date = EXCLUDED.inception_date, aum_target = EXCLUDED.aum_target, administrator = EXCLUDED.administrator,
       cash_connection_code = EXCLUDED.cash_connection_code, dealing_frequency = EXCLUDED.dealing_frequency,
       subscription_notice_days = EXCLUDED.subscription_notice_days, redemption_notice_days = EXCLUDED.redemption_notice_days,
       settlement_days = EXCLUDED.settlement_days`,
    [fundId, slug, d.name, d.baseCurrency, synthetic, d.inceptionDate, d.aumTarget, d.administrator, d.cashConnection,
      d.dealing.frequency, d.dealing.subscriptionNoticeDays, d.dealing.redemptionNoticeDays, d.dealing.settlementDays],
  );
  for (const [i, c] of d.shareClasses.entries()) {
    await qr.query(
      `INSERT INTO share_classes (id, fund_id, name, currency, mgmt_fee_annual_rate, perf_fee_rate, hurdle_annual_rate,
                                  crystallization_frequency, fee_exempt, status, launch_date, initial_nav_per_unit, sort_order)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (fund_id, name) DO UPDATE SET status = EXCLUDED.status`,
      [fundScopedId(fundId, 'share-class', c.name), fundId, c.name, c.currency, c.mgmtFeeAnnualRate, c.perfFeeRate, c.hurdleAnnualRate,
        c.crystallizationFrequency, c.feeExempt, c.status, c.launchDate, c.initialNavPerUnit, i],
    );
  }
  for (const a of chartWithOverrides(d.chartOfAccounts)) {
    await qr.query(
      `INSERT INTO chart_of_accounts (fund_id, code, name, account_type, normal_balance) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (fund_id, code) DO UPDATE SET name = EXCLUDED.name`,
      [fundId, a.code, a.name, a.accountType, a.normalBalance],
    );
  }
  for (const p of STRESS_PRESETS) {
    await qr.query(
      `INSERT INTO stress_presets (fund_id, preset_id, name, description, window_start, window_end, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [fundId, p.id, p.name, p.description, p.windowStart, p.windowEnd, p.source],
    );
    const rows = [
      ...Object.entries(p.returns).map(([k, v]) => ['asset', k, v]),
      ...Object.entries(p.fallbacks).map(([k, v]) => ['asset_class', k, v]),
    ];
    await qr.query(
      `INSERT INTO stress_preset_returns (fund_id, preset_id, kind, key, return_ratio)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::numeric[]) ON CONFLICT DO NOTHING`,
      [fundId, p.id, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
    );
  }
}

async function loadContext(qr: QueryRunner, fundId: string, baseCurrency: string, administrator: string): Promise<ImportContext> {
  // One connection inside the import transaction: queries run one after another.
  const instruments = await qr.query(`SELECT id, symbol, asset_class FROM instruments WHERE fund_id = $1`, [fundId]);
  const connections = await qr.query(`SELECT id, code, mode FROM connections WHERE fund_id = $1`, [fundId]);
  const investors = await qr.query(`SELECT id, external_id FROM investors WHERE fund_id = $1`, [fundId]);
  const classes = await qr.query(`SELECT id, name FROM share_classes WHERE fund_id = $1`, [fundId]);
  return {
    fundId, baseCurrency, administrator,
    instruments: new Map(instruments.map((r: { id: string; symbol: string; asset_class: string }) => [r.symbol, { id: r.id, assetClass: r.asset_class }])),
    connections: new Map(connections.map((r: { id: string; code: string; mode: string }) => [r.code, { id: r.id, mode: r.mode }])),
    investors: new Map(investors.map((r: { id: string; external_id: string }) => [r.external_id, r.id])),
    shareClasses: new Map(classes.map((r: { id: string; name: string }) => [r.name, r.id])),
  };
}

async function importCsv(qr: QueryRunner, spec: CsvFileSpec, path: string, ctx: ImportContext): Promise<{ file: string; rows: number; inserted: number }> {
  const errors: ImportRowError[] = [];
  const parser = createReadStream(path).pipe(parse({ columns: true, skip_empty_lines: true, trim: false, info: true, bom: true, relax_column_count: false }));
  let columns: (string | null)[][] = spec.insert.map(() => []);
  let pendingRows = 0;
  let rows = 0;
  let inserted = 0;
  let headerChecked = false;
  const seen = new Set<string>();
  const flush = async () => {
    if (pendingRows === 0 || errors.length) return;
    const sql = `WITH ins AS (
        INSERT INTO ${spec.table} (fund_id, ${spec.insert.map(([c]) => c).join(', ')})
        SELECT $1::uuid, * FROM unnest(${spec.insert.map(([, t], i) => `$${i + 2}::${t}[]`).join(', ')})
        ON CONFLICT ${spec.conflict} DO NOTHING RETURNING 1)
      SELECT count(*)::int AS n FROM ins`;
    const result = await qr.query(sql, [ctx.fundId, ...columns]);
    inserted += result[0].n;
    columns = spec.insert.map(() => []);
    pendingRows = 0;
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      if (!headerChecked) {
        headerChecked = true;
        const missing = spec.columns.filter((c) => !(c in record));
        if (missing.length) {
          throw new FundImportError(missing.map((c) => ({ file: spec.file, line: 1, column: c, reason: 'missing column in the header' })));
        }
      }
      rows++;
      const reader = new RowReader(record);
      const values = spec.parse(reader, ctx);
      if (!values || reader.problem) {
        errors.push({ file: spec.file, line: info.lines, column: reader.problem?.column ?? '(row)', reason: reader.problem?.reason ?? 'is not valid' });
        if (errors.length >= MAX_ERRORS) break;
        continue;
      }
      const key = naturalKey(spec, values);
      if (key !== null) {
        if (seen.has(key)) {
          errors.push({ file: spec.file, line: info.lines, column: spec.columns[0], reason: `duplicates an earlier row of this file (${key})` });
          if (errors.length >= MAX_ERRORS) break;
          continue;
        }
        seen.add(key);
      }
      values.forEach((v, i) => columns[i].push(v));
      pendingRows++;
      if (pendingRows >= BATCH_ROWS) await flush();
    }
  } catch (err) {
    if (err instanceof FundImportError) throw err;
    const e = err as { code?: string; lines?: number; message: string };
    throw new FundImportError([{ file: spec.file, line: e.lines ?? 0, column: '(row)', reason: `is not valid CSV: ${e.message}` }]);
  }
  if (errors.length) throw new FundImportError(errors);
  await flush();
  return { file: spec.file, rows, inserted };
}

/** Duplicate detection inside one file, for the small files only (large files rely on the unique key). */
function naturalKey(spec: CsvFileSpec, values: (string | null)[]): string | null {
  if (spec.file === 'trades.csv' || spec.file === 'prices.csv') return null;
  return spec.file === 'admin-navs.csv' ? values[0] : values[1] ?? values[0];
}
