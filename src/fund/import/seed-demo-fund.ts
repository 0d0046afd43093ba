import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DataSource } from 'typeorm';
import { type IsoDate, addDays } from '../dates';
import { fundIdForSlug } from '../ids';
import { type NavRunOutcome, NavRunService } from '../nav/nav-run.service';
import { generateDemoFund, type GenerateSummary } from './demo-generator';
import { DEMO_DEFAULT_TRADES, DEMO_END_DATE, DEMO_SEED } from './demo-universe';
import { importFundFolder } from './fund-importer';
import { purgeSyntheticFundBooks } from './fund-purge';

export interface SeedDemoOptions {
  slug?: string;
  seed?: number;
  trades?: number;
  workDir?: string;
}

export interface SeedDemoReport {
  fundId: string;
  generated: GenerateSummary;
  /** The demo's deliberate failed-then-fixed runs: not errors of the seed. */
  scenario: { name: 'late-prices'; description: string; failedThenFixed: { date: IsoDate; reason: string }[] };
  supersededRuns: number;
  completeRuns: number;
  timings: Record<string, number>;
}

/** The demo books are posted "the next morning", so two seeds give identical books. */
export const demoClock = (hour: number) => (date: IsoDate) =>
  new Date(`${addDays(date, 1)}T${String(hour).padStart(2, '0')}:00:00Z`);

/**
 * Builds the synthetic demo fund from raw events: generate the CSV set, import it, run the NAV
 * engine for every date (late prices arrive after three failed runs), then re-run the last two
 * dates as a correction so the books show superseded runs too.
 */
export async function seedDemoFund(ds: DataSource, options: SeedDemoOptions = {}): Promise<SeedDemoReport> {
  const slug = options.slug ?? 'demo';
  const seed = options.seed ?? DEMO_SEED;
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
    const started = Date.now();
    try {
      return await work();
    } finally {
      timings[name] = (Date.now() - started) / 1000;
    }
  };
  const dir = options.workDir ?? join(tmpdir(), `fundgate-${slug}-${seed}`);
  const generated = await timed('generate', () =>
    generateDemoFund({ seed, outDir: dir, trades: options.trades ?? DEMO_DEFAULT_TRADES }),
  );
  const fundId = fundIdForSlug(slug);
  await timed('purge', () => purgeSyntheticFundBooks(ds, fundId));
  await timed('import', () => importFundFolder(ds, slug, dir, { synthetic: true }));
  const nav = new NavRunService(ds);
  const failedThenFixed: { date: IsoDate; reason: string }[] = [];
  let completeRuns = 0;
  // A date re-run after its late prices arrived is posted an hour after its failed run.
  const clock = (date: IsoDate) => demoClock(failedThenFixed.some((f) => f.date === date) ? 3 : 2)(date);
  await timed('nav', async () => {
    for (;;) {
      const outcome: NavRunOutcome = await nav.runNavRange(fundId, { clock });
      completeRuns += outcome.completed;
      if (!outcome.failed) break;
      failedThenFixed.push({ date: outcome.failed.date, reason: outcome.failed.reason });
      const late = join(dir, 'late-prices', outcome.failed.date);
      if (!existsSync(late)) throw new Error(`NAV run for ${outcome.failed.date} failed: ${outcome.failed.reason}`);
      await importFundFolder(ds, slug, late);
    }
  });
  const correction = await timed('supersede', () =>
    nav.runNavRange(fundId, { from: addDays(DEMO_END_DATE, -1), clock: demoClock(6) }),
  );
  const scenario = {
    name: 'late-prices' as const,
    description:
      'deliberate: these dates fail for a price that arrives late; the late prices are imported and each date is re-run (failed, then complete)',
    failedThenFixed,
  };
  return { fundId, generated, scenario, supersededRuns: correction.superseded, completeRuns, timings };
}
