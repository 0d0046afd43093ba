import { closeSync, openSync, writeSync } from 'node:fs';

/** A CSV file written in buffered chunks (the demo generator writes ~15,000 trade rows). */
export class CsvFile {
  private readonly fd: number;
  private buffer: string[] = [];
  rows = 0;
  constructor(path: string, header: string[]) {
    this.fd = openSync(path, 'w');
    this.buffer.push(header.join(',') + '\n');
  }
  row(values: (string | number | null)[]): void {
    this.buffer.push(values.map(csvField).join(',') + '\n');
    this.rows++;
    if (this.buffer.length >= 2000) this.flush();
  }
  flush(): void {
    if (this.buffer.length) writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

function csvField(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
