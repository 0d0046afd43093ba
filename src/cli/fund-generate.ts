import { generateDemoFund } from '../fund/import/demo-generator';
import { DEMO_DEFAULT_TRADES } from '../fund/import/demo-universe';
import { parseCliArgs } from '../fund/import/cli-args';

/** `npm run fund:generate -- --seed <n> --out <dir> [--trades N]` */
function main(): void {
  const args = parseCliArgs(process.argv.slice(2), ['seed', 'out', 'trades']);
  if (!args.seed || !/^\d+$/.test(args.seed)) throw new Error('--seed <whole number> is required');
  if (!args.out) throw new Error('--out <dir> is required');
  if (args.trades && !/^\d+$/.test(args.trades)) throw new Error('--trades must be a whole number');
  const started = Date.now();
  const summary = generateDemoFund({
    seed: Number(args.seed),
    outDir: args.out,
    trades: args.trades ? Number(args.trades) : DEMO_DEFAULT_TRADES,
  });
  process.stdout.write(JSON.stringify({ ...summary, seconds: (Date.now() - started) / 1000 }) + '\n');
}

try {
  main();
} catch (err) {
  process.stderr.write(`fund:generate failed: ${(err as Error).message}\n`);
  process.exit(1);
}
