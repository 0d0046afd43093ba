export interface ImportRowError {
  file: string;
  line: number;
  column: string;
  reason: string;
}

/** A file failed validation; nothing of the import was written. */
export class FundImportError extends Error {
  constructor(readonly errors: ImportRowError[]) {
    super(errors.map((e) => `${e.file}:${e.line} column ${e.column}: ${e.reason}`).join('\n'));
  }
}
