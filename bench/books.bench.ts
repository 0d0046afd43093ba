import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createDataSource } from '../src/database/data-source';
import { migrate } from '../src/database/migrate';
import { addDays } from '../src/fund/dates';
import { generateDemoFund } from '../src/fund/import/demo-generator';
import { DEMO_END_DATE } from '../src/fund/import/demo-universe';
import { importFundFolder } from '../src/fund/import/fund-importer';
import { seedDemoFund } from '../src/fund/import/seed-demo-fund';
import { NavRunService } from '../src/fund/nav/nav-run.service';

export interface BooksBenchOptions {
  databaseUrl: string;
  /** Trades of the large fund (default 1 000 000). */
  trades?: number;
  /** Skip the full-history NAV of the large fund (it takes minutes); the single-date figure then uses the demo fund. */
  skipLargeNav?: boolean;
}

const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

/**
 * Books benchmarks (issue 3): seed:demo at default size (target < 120 s), streaming import of a
 * large trades file (target < 5 min, flat memory), NAV for one new date on that fund (target < 2 s).
 */
export async function benchBooks(options: BooksBenchOptions): Promise<{ title: string; lines: string[] }> {
  const lines: string[] = [];
  await migrate(options.databaseUrl, 'up');
  const ds = createDataSource(options.databaseUrl, 4);
  await ds.initialize();
  try {
    let t = Date.now();
    const seeded = await seedDemoFund(ds, { slug: 'demo' });
    lines.push(
      `seed:demo (default size, ${seeded.generated.trades} trades): ${seconds(t)} s (target < 120 s); phases ${JSON.stringify(seeded.timings)}`,
    );

    const trades = options.trades ?? 1_000_000;
    const dir = join(tmpdir(), `fundgate-bench-books-${trades}`);
    t = Date.now();
    generateDemoFund({ seed: 3, outDir: dir, trades });
    lines.push(`generate ${trades} trades: ${seconds(t)} s`);
    const slug = `bench-${trades}`;
    t = Date.now();
    const imported = await importFundFolder(ds, slug, dir);
    lines.push(
      `import ${trades} trades (streamed, batched unnest inserts, one transaction): ${seconds(t)} s (target < 300 s); peak RSS so far ${rssMb()} MB`,
    );
    for (const d of seeded.scenario.failedThenFixed.map((f) => f.date))
      await importFundFolder(ds, slug, join(dir, 'late-prices', d));
    const nav = new NavRunService(ds);
    if (!options.skipLargeNav) {
      t = Date.now();
      const full = await nav.runNavRange(imported.fundId, { to: addDays(DEMO_END_DATE, -1) });
      lines.push(
        `NAV history (${full.completed} dates) on the ${trades}-trade fund: ${seconds(t)} s; peak RSS ${rssMb()} MB`,
      );
      t = Date.now();
      await nav.runNavRange(imported.fundId, { to: DEMO_END_DATE });
      lines.push(
        `NAV for one new date on the ${trades}-trade fund: ${((Date.now() - t) / 1000).toFixed(2)} s (target < 2 s)`,
      );
    }
    return { title: 'Fund books (issue 3)', lines };
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_bench_books';
  const trades = process.env.BENCH_TRADES ? Number(process.env.BENCH_TRADES) : undefined;
  benchBooks({ databaseUrl, trades })
    .then((s) => process.stdout.write(`${s.title}\n${s.lines.map((l) => `- ${l}`).join('\n')}\n`))
    .catch((err) => {
      process.stderr.write(`books bench failed: ${(err as Error).stack}\n`);
      process.exit(1);
    });
}
