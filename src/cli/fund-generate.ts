import { generateDemoFund } from '../fund/import/demo-generator';
import { DEMO_DEFAULT_TRADES } from '../fund/import/demo-universe';
import { parseCliArgs, wholeNumberArg } from '../fund/import/cli-args';
import { helpAsked } from './options';

const USAGE = [
  'usage: npm run fund:generate -- --seed <n> --out <folder> [--trades N]',
  '  writes a deterministic synthetic fund as CSV files into a new or empty folder, or one holding only an',
  '  earlier generation (replaced); a folder holding anything else is refused and nothing is removed',
].join('\n');

/** `npm run fund:generate -- --seed <n> --out <dir> [--trades N]` */
function main(): void {
  if (helpAsked(process.argv.slice(2), USAGE)) return;
  const args = parseCliArgs(process.argv.slice(2), ['seed', 'out', 'trades']);
  const seed = wholeNumberArg(args, 'seed');
  if (seed === undefined) throw new Error('--seed <whole number> is required');
  if (!args.out) throw new Error('--out <dir> is required');
  const started = Date.now();
  const summary = generateDemoFund({
    seed,
    outDir: args.out,
    trades: wholeNumberArg(args, 'trades') ?? DEMO_DEFAULT_TRADES,
  });
  process.stdout.write(JSON.stringify({ ...summary, seconds: (Date.now() - started) / 1000 }) + '\n');
}

try {
  main();
} catch (err) {
  process.stderr.write(`fund:generate failed: ${(err as Error).message}\n`);
  process.exit(1);
}
