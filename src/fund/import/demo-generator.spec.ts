import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { generateDemoFund } from './demo-generator';

function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

describe('demo generator determinism', () => {
  it('writes byte-identical files for the same seed', () => {
    const base = join(tmpdir(), `fundgate-gen-spec-${process.pid}`);
    const a = generateDemoFund({ seed: 7, outDir: join(base, 'a'), trades: 2000 });
    generateDemoFund({ seed: 7, outDir: join(base, 'b'), trades: 2000 });
    const da = digest(join(base, 'a'));
    expect(Object.keys(da)).toEqual(
      expect.arrayContaining([
        'fund.json',
        'trades.csv',
        'prices.csv',
        'capital-flows.csv',
        'late-prices/2024-03-09/prices.csv',
      ]),
    );
    expect(digest(join(base, 'b'))).toEqual(da);
    expect(a.trades).toBeGreaterThanOrEqual(1900);
    expect(a.paperTrades).toBeGreaterThan(0);

    // a shorter history: the days through `through` trade exactly as in the full one
    const through = '2023-12-15';
    const short = generateDemoFund({ seed: 7, outDir: join(base, 'c'), trades: 2000, through });
    expect(short.days).toBe(46);
    const rows = (dir: string, file: string) =>
      readFileSync(join(base, dir, file), 'utf8')
        .trim()
        .split('\n');
    const tradedBy = (dir: string) =>
      rows(dir, 'trades.csv').filter((r, i) => i === 0 || r.split(',')[1].slice(0, 10) <= through);
    expect(rows('c', 'trades.csv')).toEqual(tradedBy('a'));
    expect(rows('c', 'trades.csv').length).toBeGreaterThan(20);
    expect(rows('c', 'transfers.csv')).toEqual(
      rows('a', 'transfers.csv').filter((r, i) => i === 0 || r.split(',')[1].slice(0, 10) <= through),
    );
    for (const file of ['prices.csv', 'capital-flows.csv', 'expenses.csv', 'investors.csv'])
      expect({ file, rows: rows('c', file) }).toEqual({ file, rows: rows('a', file) });
    expect(rows('c', 'admin-navs.csv').map((r) => r.split(',')[0])).toEqual(['date', '2023-10-31', '2023-11-30']);
  }, 60_000);
});

describe('demo generator output folder', () => {
  const base = join(tmpdir(), `fundgate-gen-out-${process.pid}`);
  const small = (outDir: string) => ({ seed: 3, outDir, trades: 50, through: '2023-11-05' }); // a week is enough here

  it('regenerates over its own files, but refuses a folder holding anything else and never removes it', () => {
    const out = join(base, 'mixed');
    generateDemoFund(small(out));
    generateDemoFund(small(out)); // its own files only: cleared and written again
    writeFileSync(join(out, 'precious.txt'), 'keep me');
    expect(() => generateDemoFund(small(out))).toThrow(/holds files the generator did not write \(precious\.txt\)/);
    expect(readFileSync(join(out, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(out, 'trades.csv'))).toBe(true); // nothing was removed
    const late = join(out, 'late-prices', '2024-03-09', 'notes.txt');
    rmSync(join(out, 'precious.txt'));
    writeFileSync(late, 'mine too');
    expect(() => generateDemoFund(small(out))).toThrow(/late-prices\/2024-03-09\/notes\.txt/);
    expect(readFileSync(late, 'utf8')).toBe('mine too');
  }, 60_000);
});
