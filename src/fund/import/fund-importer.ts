import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CsvError, parse } from 'csv-parse';
import { type DataSource } from 'typeorm';
import { fundIdForSlug } from '../ids';
import { CSV_FILES, type CsvFileSpec, type ImportContext, type Restatement } from './csv-files';
import { type FundDefinition, parseFundDefinition } from './fund-definition';
import { FundImportRepository, type ImportedFundRow } from './fund-import.repository';
import { FundImportError, type ImportRowError } from './import-errors';
import { RowReader } from './row-validation';
import { BATCH_ROWS, type ImportBooks, PendingBatch } from './import-batch';

export interface FundImportReport {
  fundId: string;
  slug: string;
  created: boolean;
  /** `restated`: the administrator NAVs a re-import changed, each with the stored and the new value. */
  files: { file: string; rows: number; inserted: number; updated: number; restated?: Restatement[] }[];
  /** The date the next NAV run starts from because rows dated on or before a complete run came in (null: none did). */
  navRestartFrom: string | null;
}

const MAX_ERRORS = 50;

/**
 * Imports a fund's folder of raw events in ONE transaction: a file with a bad row imports
 * nothing. Rows are streamed and written in batches keyed on their natural keys: re-importing the
 * same rows changes nothing, a changed row is updated or refused by its file's rule, and a row that
 * moves the books on or before a complete NAV run restarts the NAV from its date (refused inside
 * the published, closed books).
 */
export async function importFundFolder(
  ds: DataSource,
  slug: string,
  dir: string,
  options: { synthetic?: boolean; batchRows?: number } = {},
): Promise<FundImportReport> {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug))
    throw new FundImportError([
      { file: '(arguments)', line: 0, column: 'fund', reason: `"${slug}" is not a valid fund slug` },
    ]);
  if (!existsSync(dir))
    throw new FundImportError([{ file: dir, line: 0, column: '(folder)', reason: 'does not exist' }]);
  const known = ['fund.json', ...CSV_FILES.map((f) => f.file)];
  if (!known.some((f) => existsSync(join(dir, f))))
    throw new FundImportError([
      {
        file: dir,
        line: 0,
        column: '(folder)',
        reason: `holds none of the files an import reads (${known.join(', ')})`,
      },
    ]);
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
  options: { synthetic?: boolean; batchRows?: number },
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
    if (!created) await refuseTermChanges(repo, fund.id, definition);
    await repo.upsertFund(fund.id, slug, definition, options.synthetic ?? false);
    fund.administrator = definition.administrator;
    fund.inception_date = definition.inceptionDate;
  } else if (!fund) {
    throw new FundImportError([
      { file: 'fund.json', line: 0, column: '(file)', reason: `is required to create the new fund "${slug}"` },
    ]);
  }
  const ctx = await loadContext(repo, fund, fund.base_currency.trim());
  const { closedThrough, inception } = await repo.bookingDates(fund.id);
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const books: ImportBooks = { closedThrough, inception, fresh: created, batchRows, restartFrom: null };
  const files: FundImportReport['files'] = [];
  for (const spec of CSV_FILES) {
    const path = join(dir, spec.file);
    if (!existsSync(path)) continue;
    files.push(await importCsv(repo, spec, path, ctx, books));
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
  const restarted = books.restartFrom ? await repo.restartNavFrom(fund.id, books.restartFrom) : false;
  return { fundId: fund.id, slug, created, files, navRestartFrom: restarted ? books.restartFrom : null };
}

/** A class's terms, and the inception date once the NAV has run, are what the books rest on: they do not change. */
async function refuseTermChanges(repo: FundImportRepository, fundId: string, d: FundDefinition): Promise<void> {
  const changes = await repo.termChanges(fundId, d);
  if (changes.length === 0) return;
  throw new FundImportError(
    changes.map((c) => ({
      file: 'fund.json',
      line: 1,
      column: c.path,
      reason:
        c.reason ??
        `is ${c.stored} in the books, which rest on it: it cannot change${c.path.startsWith('shareClasses') ? ' (a new share class takes new terms)' : ''}`,
    })),
  );
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
    today: new Date().toISOString().slice(0, 10),
    instruments: new Map(instruments.map((r) => [r.symbol, { id: r.id, assetClass: r.asset_class }])),
    connections: new Map(connections.map((r) => [r.code, { id: r.id, mode: r.mode }])),
    investors: new Map(investors.map((r) => [r.external_id, r.id])),
    shareClasses: new Map(classes.map((r) => [r.name, r.id])),
  };
}

async function importCsv(
  repo: FundImportRepository,
  spec: CsvFileSpec,
  path: string,
  ctx: ImportContext,
  books: ImportBooks,
): Promise<FundImportReport['files'][number]> {
  const errors: ImportRowError[] = [];
  let header = false;
  const columns = (names: string[]) => {
    header = true;
    return checkHeader(spec, names);
  }; // called for the header line, rows or not
  const parser = createReadStream(path).pipe(
    parse({ columns, skip_empty_lines: true, trim: false, info: true, bom: true, relax_column_count: false }),
  );
  const batch = new PendingBatch(repo, spec, ctx.fundId, books, errors);
  const seen = new Set<string>();
  let rows = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      rows++;
      const reader = new RowReader(record, ctx.today);
      const values = spec.parse(reader, ctx);
      const problem = rowProblem(spec, reader, values, info.lines, seen);
      if (problem) {
        errors.push(problem);
        if (errors.length >= MAX_ERRORS) break;
        continue;
      }
      await batch.add(values!, info.lines);
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err; // ours, or the database's: not the file's syntax
    const line = (err as CsvError & { lines?: number }).lines ?? 0;
    throw new FundImportError([{ file: spec.file, line, column: '(row)', reason: `is not valid CSV: ${err.message}` }]);
  }
  if (!header) {
    const reason = `is empty: its first line must be the header (${spec.columns.join(',')})`;
    throw new FundImportError([{ file: spec.file, line: 1, column: '(file)', reason }]);
  }
  if (errors.length) throw new FundImportError(errors);
  await batch.flush();
  if (errors.length) throw new FundImportError(errors);
  const restated = batch.restated.length ? { restated: batch.restated } : {};
  return { file: spec.file, rows, inserted: batch.inserted, updated: batch.updated, ...restated };
}

/** The header names every column the file defines, each once (a repeated one would silently win). */
function checkHeader(spec: CsvFileSpec, names: string[]): string[] {
  const problems = [
    ...spec.columns
      .filter((c) => !names.includes(c))
      .map((c) => ({ column: c, reason: 'missing column in the header' })),
    ...names
      .filter((c, i) => names.indexOf(c) !== i)
      .map((c) => ({ column: c, reason: 'appears twice in the header' })),
  ];
  if (problems.length) throw new FundImportError(problems.map((p) => ({ file: spec.file, line: 1, ...p })));
  return names;
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
      reason: `duplicates an earlier row of this file (${spec.file === 'prices.csv' ? `the same symbol on ${values[1]}` : key})`,
    };
  seen.add(key);
  return null;
}

/**
 * Duplicate detection inside one file, for every file but trades.csv (a key repeated with other
 * values there is refused by its batch or, across batches, against the row already written).
 */
function naturalKey(spec: CsvFileSpec, values: (string | null)[]): string | null {
  if (spec.file === 'trades.csv') return null;
  if (spec.file === 'prices.csv') return `${values[0]} ${values[1]}`; // instrument and date
  return spec.file === 'admin-navs.csv' ? values[0] : (values[1] ?? values[0]);
}
