import { loadConfig } from '../config/config';
import { createDataSource } from '../database/data-source';
import { isIsoDate } from '../fund/dates';
import { parseCliArgs } from '../fund/import/cli-args';
import { NavRunService } from '../fund/nav/nav-run.service';
import { KeysRepository } from '../keys/keys.repository';

/** `npm run fund:nav -- --fund <slug> [--from D] [--to D]` */
async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), ['fund', 'from', 'to']);
  if (!args.fund) throw new Error('--fund <slug> is required');
  for (const k of ['from', 'to'] as const)
    if (args[k] && !isIsoDate(args[k])) throw new Error(`--${k} must be a date YYYY-MM-DD`);
  if (args.from && args.to && args.from > args.to) throw new Error(`--from ${args.from} is after --to ${args.to}`);
  const ds = createDataSource(loadConfig().databaseUrl, 4);
  await ds.initialize();
  try {
    const fund = await new KeysRepository(ds).fundBySlug(args.fund);
    if (!fund) throw new Error(`no fund with slug "${args.fund}"`);
    const started = Date.now();
    const outcome = await new NavRunService(ds).runNavRange(fund.id, {
      from: args.from,
      to: args.to,
      onRange: async (range) => sayWidened(args, range),
    });
    process.stdout.write(JSON.stringify({ msg: 'nav', ...outcome, seconds: (Date.now() - started) / 1000 }) + '\n');
    if (outcome.failed) process.exitCode = 2;
  } finally {
    await ds.destroy();
  }
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
