import { isIsoDate } from '../fund/dates';
import { parseCliArgs } from '../fund/import/cli-args';
import { NavRunService } from '../fund/nav/nav-run.service';
import { KeysRepository } from '../keys/keys.repository';
import { helpAsked, withDatabase } from './options';

const USAGE = [
  'usage: npm run fund:nav -- --fund <slug> [--from YYYY-MM-DD] [--to YYYY-MM-DD]',
  '  runs the NAV engine over the dates not yet run (or --from … --to); re-running a complete date re-runs',
  '  every later complete date (stderr says when --to widened); never on or before the last published NAV',
].join('\n');

/** `npm run fund:nav -- --fund <slug> [--from D] [--to D]` */
async function main(): Promise<void> {
  if (helpAsked(process.argv.slice(2), USAGE)) return;
  const args = parseCliArgs(process.argv.slice(2), ['fund', 'from', 'to']);
  if (!args.fund) throw new Error('--fund <slug> is required');
  for (const k of ['from', 'to'] as const)
    if (args[k] && !isIsoDate(args[k])) throw new Error(`--${k} must be a date YYYY-MM-DD`);
  if (args.from && args.to && args.from > args.to) throw new Error(`--from ${args.from} is after --to ${args.to}`);
  const slug = args.fund;
  await withDatabase(4, async (ds) => {
    const fund = await new KeysRepository(ds).fundBySlug(slug);
    if (!fund) throw new Error(`no fund with slug "${slug}"`);
    const started = Date.now();
    const outcome = await new NavRunService(ds).runNavRange(fund.id, {
      from: args.from,
      to: args.to,
      onRange: async (range) => sayWidened(args, range),
    });
    process.stdout.write(JSON.stringify({ msg: 'nav', ...outcome, seconds: (Date.now() - started) / 1000 }) + '\n');
    if (outcome.failed) process.exitCode = 2;
  });
}

/** A range the run settled wider than asked (a re-run cascades; a stopped run restarts earlier) is said on stderr. */
function sayWidened(asked: Record<string, string | undefined>, range: { from: string; to: string }): void {
  if (asked.from && range.from < asked.from)
    process.stderr.write(
      `fund:nav: --from widened to ${range.from}: a run stopped short there must be taken up first\n`,
    );
  if (asked.to && range.to > asked.to)
    process.stderr.write(
      `fund:nav: --to widened to ${range.to}: re-running a complete date re-runs every later complete date\n`,
    );
}

main().catch((err) => {
  process.stderr.write(`fund:nav failed: ${(err as Error).message}\n`);
  process.exit(1);
});
