import { parseCliArgs } from '../fund/import/cli-args';
import { importFundFolder } from '../fund/import/fund-importer';
import { FundImportError } from '../fund/import/import-errors';
import { NavRunService } from '../fund/nav/nav-run.service';
import { helpAsked, withDatabase } from './options';

const USAGE = [
  'usage: npm run fund:import -- --fund <slug> --dir <folder> [--no-nav]',
  "  imports the folder's raw events in one transaction (docs/books-figures.md), then runs the NAV (unless --no-nav)",
].join('\n');

/** `npm run fund:import -- --fund <slug> --dir <folder> [--no-nav]` */
async function main(): Promise<void> {
  if (helpAsked(process.argv.slice(2), USAGE)) return;
  const args = parseCliArgs(process.argv.slice(2), ['fund', 'dir'], ['no-nav']);
  if (!args.fund) throw new Error('--fund <slug> is required');
  if (!args.dir) throw new Error('--dir <folder> is required');
  const [slug, dir] = [args.fund, args.dir];
  await withDatabase(4, async (ds) => {
    const started = Date.now();
    const report = await importFundFolder(ds, slug, dir);
    const importSeconds = (Date.now() - started) / 1000;
    process.stdout.write(
      JSON.stringify({ msg: 'imported', ...report, seconds: importSeconds, peakRssMb: peakRssMb() }) + '\n',
    );
    if (!args['no-nav']) {
      const navStarted = Date.now();
      const outcome = await new NavRunService(ds)
        .runNavRange(report.fundId)
        .catch((err: Error) =>
          Promise.reject(new Error(`the import was committed; the NAV run after it failed: ${err.message}`)),
        );
      process.stdout.write(
        JSON.stringify({ msg: 'nav', ...outcome, seconds: (Date.now() - navStarted) / 1000, peakRssMb: peakRssMb() }) +
          '\n',
      );
      if (outcome.failed) process.exitCode = 2;
    }
  });
}

function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

main().catch((err) => {
  if (err instanceof FundImportError) {
    process.stderr.write(`fund:import refused the folder; nothing was imported:\n${err.message}\n`);
  } else {
    process.stderr.write(`fund:import failed: ${(err as Error).message}\n`);
  }
  process.exit(1);
});
