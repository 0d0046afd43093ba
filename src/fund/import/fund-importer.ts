import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { type DataSource } from 'typeorm';
import { fundIdForSlug } from '../ids';
import { CSV_FILES, type CsvFileSpec, type ImportContext } from './csv-files';
import { parseFundDefinition } from './fund-definition';
import { FundImportRepository, type ImportedFundRow } from './fund-import.repository';
import { FundImportError, type ImportRowError } from './import-errors';
import { RowReader } from './row-validation';

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
export async function importFundFolder(
  ds: DataSource,
  slug: string,
  dir: string,
  options: { synthetic?: boolean } = {},
): Promise<FundImportReport> {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug))
    throw new FundImportError([
      { file: '(arguments)', line: 0, column: 'fund', reason: `"${slug}" is not a valid fund slug` },
    ]);
  if (!existsSync(dir))
    throw new FundImportError([{ file: dir, line: 0, column: '(folder)', reason: 'does not exist' }]);
  const imports = new FundImportRepository(ds);
  const qr = ds.createQueryRunner();
  await qr.connect();
  await qr.startTransaction();
  try {
    const report = await importInTransaction(imports.with(qr), slug, dir, options);
    await qr.commitTransaction();
    return report;
  } catch (err) {
    await qr.rollbackTransaction();
    throw err;
  } finally {
    await qr.release();
  }
}

/** `repo` is bound to the import's transaction (`repo.with(qr)`). */
async function importInTransaction(
  repo: FundImportRepository,
  slug: string,
  dir: string,
  options: { synthetic?: boolean },
): Promise<FundImportReport> {
  const fundJson = join(dir, 'fund.json');
  await repo.lockNavInputs({ slug }); // waits for a NAV run of the fund in progress; before the row lock
  let fund = await repo.lockFundBySlug(slug);
  let created = false;
  if (existsSync(fundJson)) {
    const { definition, errors } = parseFundDefinition(readFileSync(fundJson, 'utf8'));
    if (!definition) throw new FundImportError(errors);
    if (!fund) {
      created = true;
      fund = {
        id: fundIdForSlug(slug),
        base_currency: definition.baseCurrency,
        administrator: definition.administrator,
        inception_date: definition.inceptionDate,
      };
    } else if (fund.base_currency.trim() !== definition.baseCurrency) {
      throw new FundImportError([
        {
          file: 'fund.json',
          line: 1,
          column: 'baseCurrency',
          reason: `the fund's base currency is ${fund.base_currency}; it cannot change`,
        },
      ]);
    }
    await repo.upsertFund(fund.id, slug, definition, options.synthetic ?? false);
    fund.administrator = definition.administrator;
    fund.inception_date = definition.inceptionDate;
  } else if (!fund) {
    throw new FundImportError([
      { file: 'fund.json', line: 0, column: '(file)', reason: `is required to create the new fund "${slug}"` },
    ]);
  }
  const ctx = await loadContext(repo, fund, fund.base_currency.trim());
  const files: FundImportReport['files'] = [];
  for (const spec of CSV_FILES) {
    const path = join(dir, spec.file);
    if (!existsSync(path)) continue;
    files.push(await importCsv(repo, spec, path, ctx));
    if (spec.reloadsContext) Object.assign(ctx, await loadContext(repo, fund, ctx.baseCurrency));
  }
  const cash = await repo.cashConnectionCode(fund.id);
  if (cash && !ctx.connections.has(cash)) {
    throw new FundImportError([
      {
        file: 'fund.json',
        line: 1,
        column: 'cashConnection',
        reason: `names a connection "${cash}" that connections.csv does not define`,
      },
    ]);
  }
  return { fundId: fund.id, slug, created, files };
}

async function loadContext(
  repo: FundImportRepository,
  fund: ImportedFundRow,
  baseCurrency: string,
): Promise<ImportContext> {
  const fundId = fund.id;
  // One connection inside the import transaction: queries run one after another.
  const instruments = await repo.instruments(fundId);
  const connections = await repo.connections(fundId);
  const investors = await repo.investors(fundId);
  const classes = await repo.shareClasses(fundId);
  return {
    fundId,
    baseCurrency,
    administrator: fund.administrator ?? '',
    inceptionDate: fund.inception_date,
    instruments: new Map(instruments.map((r) => [r.symbol, { id: r.id, assetClass: r.asset_class }])),
    connections: new Map(connections.map((r) => [r.code, { id: r.id, mode: r.mode }])),
    investors: new Map(investors.map((r) => [r.external_id, r.id])),
    shareClasses: new Map(classes.map((r) => [r.name, r.id])),
  };
}

/** Rows waiting to be inserted, one array per insert column; nothing more is written once the file has an error. */
class PendingBatch {
  inserted = 0;
  private columns: (string | null)[][];
  private rows = 0;

  constructor(
    private readonly repo: FundImportRepository,
    private readonly spec: CsvFileSpec,
    private readonly fundId: string,
    private readonly errors: ImportRowError[],
  ) {
    this.columns = spec.insert.map(() => []);
  }

  async add(values: (string | null)[]): Promise<void> {
    values.forEach((v, i) => this.columns[i].push(v));
    this.rows++;
    if (this.rows >= BATCH_ROWS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows === 0 || this.errors.length) return;
    this.inserted += await this.repo.insertBatch(this.spec, this.fundId, this.columns);
    this.columns = this.spec.insert.map(() => []);
    this.rows = 0;
  }
}

async function importCsv(
  repo: FundImportRepository,
  spec: CsvFileSpec,
  path: string,
  ctx: ImportContext,
): Promise<{ file: string; rows: number; inserted: number }> {
  const errors: ImportRowError[] = [];
  const parser = createReadStream(path).pipe(
    parse({ columns: true, skip_empty_lines: true, trim: false, info: true, bom: true, relax_column_count: false }),
  );
  const batch = new PendingBatch(repo, spec, ctx.fundId, errors);
  const seen = new Set<string>();
  let rows = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      if (rows === 0) checkHeader(spec, record);
      rows++;
      const reader = new RowReader(record);
      const values = spec.parse(reader, ctx);
      const problem = rowProblem(spec, reader, values, info.lines, seen);
      if (problem) {
        errors.push(problem);
        if (errors.length >= MAX_ERRORS) break;
        continue;
      }
      await batch.add(values!);
    }
  } catch (err) {
    if (err instanceof FundImportError) throw err;
    const e = err as { code?: string; lines?: number; message: string };
    throw new FundImportError([
      { file: spec.file, line: e.lines ?? 0, column: '(row)', reason: `is not valid CSV: ${e.message}` },
    ]);
  }
  if (errors.length) throw new FundImportError(errors);
  await batch.flush();
  return { file: spec.file, rows, inserted: batch.inserted };
}

/** The first record's keys must include every column the file defines. */
function checkHeader(spec: CsvFileSpec, record: Record<string, string>): void {
  const missing = spec.columns.filter((c) => !(c in record));
  if (missing.length) {
    throw new FundImportError(
      missing.map((c) => ({ file: spec.file, line: 1, column: c, reason: 'missing column in the header' })),
    );
  }
}

/** The problem with one parsed row (not valid, or a duplicate of an earlier row of the file), or null. */
function rowProblem(
  spec: CsvFileSpec,
  reader: RowReader,
  values: (string | null)[] | null,
  line: number,
  seen: Set<string>,
): ImportRowError | null {
  if (!values || reader.problem) {
    return {
      file: spec.file,
      line,
      column: reader.problem?.column ?? '(row)',
      reason: reader.problem?.reason ?? 'is not valid',
    };
  }
  const key = naturalKey(spec, values);
  if (key === null) return null;
  if (seen.has(key))
    return {
      file: spec.file,
      line,
      column: spec.columns[0],
      reason: `duplicates an earlier row of this file (${key})`,
    };
  seen.add(key);
  return null;
}

/** Duplicate detection inside one file, for the small files only (large files rely on the unique key). */
function naturalKey(spec: CsvFileSpec, values: (string | null)[]): string | null {
  if (spec.file === 'trades.csv' || spec.file === 'prices.csv') return null;
  return spec.file === 'admin-navs.csv' ? values[0] : (values[1] ?? values[0]);
}
