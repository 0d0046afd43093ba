import type { CsvFileSpec, Restatement, StoredChange } from './csv-files';
import { type FundImportRepository, keyColumns } from './fund-import.repository';
import type { ImportRowError } from './import-errors';

export const BATCH_ROWS = 5000;

/** What the import knows of the fund's books, and the earliest date it moved them on or before a run. */
export interface ImportBooks {
  /** The last published NAV: rows dated on or before it are refused (the books are closed through it). */
  closedThrough: string | null;
  /** Rows dated before it move nothing (prices kept as market history: the NAV starts at inception). */
  inception: string | null;
  /** A fund this import creates has no stored rows to compare a batch with. */
  fresh: boolean;
  /** Rows per batch (5 000; smaller in tests, to cross batch boundaries with a small folder). */
  batchRows: number;
  restartFrom: string | null;
}

/**
 * Rows waiting to be written, one array per insert column, with their lines. A flush compares them
 * with the rows already stored under the same natural key: an identical row changes nothing, a
 * changed one is updated, kept or refused by the file's rule (`reimport`), and a new or changed row
 * dated inside the closed books is refused. Nothing is written once the file has an error.
 */
export class PendingBatch {
  inserted = 0;
  updated = 0;
  /** The updates the file's spec reports with both values (`restatement`). */
  readonly restated: Restatement[] = [];
  private columns: (string | null)[][];
  private lines: number[] = [];
  private byKey = new Map<string, string>();
  /** Where the natural key's values and the NAV date sit in a row (worked out once, not per row). */
  private readonly keyAt: number[];
  private readonly navAt: number;

  constructor(
    private readonly repo: FundImportRepository,
    private readonly spec: CsvFileSpec,
    private readonly fundId: string,
    private readonly books: ImportBooks,
    private readonly errors: ImportRowError[],
  ) {
    this.columns = spec.insert.map(() => []);
    const names = spec.insert.map(([c]) => c);
    this.keyAt = keyColumns(spec).map((k) => names.indexOf(k));
    this.navAt = spec.navDate === undefined ? -1 : names.indexOf(spec.navDate);
  }

  async add(values: (string | null)[], line: number): Promise<void> {
    if (this.errors.length || this.duplicate(values, line)) return; // nothing more is written: nothing to hold
    values.forEach((v, i) => this.columns[i].push(v));
    this.lines.push(line);
    if (this.lines.length >= this.books.batchRows) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.lines.length === 0 || this.errors.length) return;
    if (this.books.fresh) return this.flushFresh();
    const stored = await this.repo.storedRows(this.spec, this.fundId, this.columns);
    const updates: number[] = [];
    this.lines.forEach((line, i) => {
      const change = stored.get(i + 1);
      const verdict = change ? this.judgeChange(change, line) : this.judgeNew(i, line);
      if (verdict === 'update') updates.push(i + 1);
    });
    if (this.errors.length) return;
    this.inserted += await this.repo.insertBatch(this.spec, this.fundId, this.columns);
    this.updated += await this.repo.updateRows(this.spec, this.fundId, this.columns, updates);
    this.reset();
  }

  /**
   * A new fund: nothing is stored to compare with (one query per batch saved on a 1 M-trade
   * import). A key an earlier batch of the file already wrote is the only conflict; when there is
   * one, the stored rows are read back and a repeat with other values is refused.
   */
  private async flushFresh(): Promise<void> {
    const inserted = await this.repo.insertBatch(this.spec, this.fundId, this.columns);
    if (inserted < this.lines.length) {
      const stored = await this.repo.storedRows(this.spec, this.fundId, this.columns);
      this.lines.forEach((line, i) => {
        if (stored.get(i + 1)?.changed.length)
          this.refuse(line, this.spec.columns[0], 'repeats the key of an earlier row with other values');
      });
    }
    this.inserted += inserted;
    this.reset();
  }

  private reset(): void {
    this.columns = this.spec.insert.map(() => []);
    this.lines = [];
    this.byKey.clear();
  }

  /** A second row of the batch with the same key: identical is dropped, different is refused. */
  private duplicate(values: (string | null)[], line: number): boolean {
    const key = this.keyAt.map((at) => values[at]).join('\u0000');
    const whole = values.join('\u0000');
    const earlier = this.byKey.get(key);
    this.byKey.set(key, earlier ?? whole);
    if (earlier === undefined) return false;
    if (earlier !== whole)
      this.refuse(line, this.spec.columns[0], 'repeats the key of an earlier row with other values');
    return true;
  }

  private judgeNew(i: number, line: number): 'insert' | 'refused' {
    if (this.navAt < 0) return 'insert';
    const column = this.csvColumn(this.spec.insert[this.navAt][0]);
    return this.dated(this.columns[this.navAt][i], line, column) ? 'insert' : 'refused';
  }

  private judgeChange(change: StoredChange, line: number): 'same' | 'update' | 'refused' {
    if (change.changed.length === 0) return 'same';
    const column = this.csvColumn(change.changed[0]);
    const verdict = this.spec.reimport?.(change) ?? { refuse: 'an imported row cannot change; add a new one' };
    if ('keep' in verdict) return 'same';
    if ('refuse' in verdict) {
      this.refuse(line, column, `differs from the row already imported (${describe(change)}): ${verdict.refuse}`);
      return 'refused';
    }
    if (!this.dated(verdict.navDate, line, column)) return 'refused';
    if (this.spec.restatement) this.restated.push(this.spec.restatement(change));
    return 'update';
  }

  /** A row that moves the books from `date`: refused inside the closed books, else the NAV is redone from it. */
  private dated(date: string | null, line: number, column: string): boolean {
    if (!date || (this.books.inception && date < this.books.inception)) return true;
    if (this.books.closedThrough && date <= this.books.closedThrough) {
      this.refuse(
        line,
        column,
        `${date} is on or before ${this.books.closedThrough}, the last published NAV: the books are closed through it; date a correction after it`,
      );
      return false;
    }
    if (!this.books.restartFrom || date < this.books.restartFrom) this.books.restartFrom = date;
    return true;
  }

  private csvColumn(sqlColumn: string): string {
    const entry = this.spec.insert.find(([c]) => c === sqlColumn);
    return entry?.[2] ?? sqlColumn;
  }

  private refuse(line: number, column: string, reason: string): void {
    this.errors.push({ file: this.spec.file, line, column, reason });
  }
}

/** "close: 40000 stored, 40100 in the file" for the changed columns (references by name only). */
function describe(c: StoredChange): string {
  return c.changed
    .map((col) =>
      /_id$/.test(col)
        ? `${col} differs`
        : `${col}: ${c.stored[col] ?? 'empty'} stored, ${c.incoming[col] ?? 'empty'} in the file`,
    )
    .join('; ');
}
