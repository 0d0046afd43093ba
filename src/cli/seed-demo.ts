import { loadConfig } from '../config/config';
import { migrate } from '../database/migrate';
import { parseCliArgs, wholeNumberArg } from '../fund/import/cli-args';
import { seedDemoFund } from '../fund/import/seed-demo-fund';
import { ensureDemoPeople } from '../identity/people';
import { ensureDemoKey } from '../keys/demo-key';
import { KeysRepository } from '../keys/keys.repository';
import { helpAsked, withDatabase } from './options';

const USAGE = [
  'usage: npm run seed:demo [-- --trades N] [--seed N]',
  '  migrates, then builds the synthetic demo fund, the demo key and the demo console people',
].join('\n');

/**
 * `npm run seed:demo [-- --trades N]`: the synthetic demo fund's books, built from raw events, plus the
 * demo key and the demo console people (demo-admin@ and demo-analyst@fundgate.dev; password from
 * DEMO_ADMIN_PASSWORD, or generated and printed on stderr).
 */
async function main(): Promise<void> {
  if (helpAsked(process.argv.slice(2), USAGE)) return;
  const args = parseCliArgs(process.argv.slice(2), ['trades', 'seed']);
  wholeNumberArg(args, 'trades'); // refused before the database is touched
  wholeNumberArg(args, 'seed');
  const config = loadConfig();
  const started = Date.now();
  await migrate(config.databaseUrl, 'up');
  await withDatabase(4, async (ds) => {
    const report = await seedDemoFund(ds, {
      trades: wholeNumberArg(args, 'trades'),
      seed: wholeNumberArg(args, 'seed'),
    });
    await ensureDemoKey(ds, config.demoApiKey, report.fundId);
    const slug = (await new KeysRepository(ds).slugOf(report.fundId)) as string;
    const people = await ensureDemoPeople(ds, slug, config.demoAdminPassword);
    // a generated password is shown once so the demo can be signed in to; one the operator chose is not echoed
    const shown = people.generated ? people.password : '(the password in DEMO_ADMIN_PASSWORD)';
    process.stderr.write(
      `Console sign-in (${people.generated ? 'generated password; set DEMO_ADMIN_PASSWORD to choose one' : 'DEMO_ADMIN_PASSWORD'}):\n` +
        people.emails.map((e) => `  ${e}  ${shown}\n`).join(''),
    );
    const { generated, ...rest } = report;
    process.stdout.write(
      JSON.stringify({
        msg: 'seeded demo fund',
        ...rest,
        trades: generated.trades,
        finalNav: generated.finalNav,
        seconds: (Date.now() - started) / 1000,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      }) + '\n',
    );
  });
}

main().catch((err) => {
  process.stderr.write(`seed:demo failed: ${(err as Error).message}\n`);
  process.exit(1);
});
