import 'reflect-metadata';
import { type DataSource } from 'typeorm';
import { commandOptions, withDatabase } from './options';
import { isScope, PLANS, type Scope } from '../common/auth/scopes';
import { ProblemError } from '../common/errors/problem';
import { CursorCodec } from '../common/pagination/cursor';
import { loadConfig, type Plan } from '../config/config';
import { isIsoDate } from '../fund/dates';
import { KeysRepository } from '../keys/keys.repository';
import { KeysService } from '../keys/keys.service';
import { keySummary } from '../keys/key-views';

/**
 * Operator CLI (people mint their own keys in the console). A key is minted for a person, through
 * the same minting function as the API: scopes within their role on the fund, plan within theirs.
 *   npm run keys -- create --email <person> [--fund <slug>] --scopes a,b --plan <plan> [--expires <date>] [--name N] [--json]
 *   npm run keys -- list [--json]
 *   npm run keys -- revoke <id>
 */
const USAGE =
  'usage: keys create --email <person> [--fund <slug>] --scopes a,b --plan free|developer|platform [--expires <date>] [--name <name>] [--json] | keys list [--json] | keys revoke <id>';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function run(db: DataSource, argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = commandOptions(
    rest,
    {
      email: { type: 'string' },
      fund: { type: 'string' },
      scopes: { type: 'string' },
      plan: { type: 'string' },
      expires: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    USAGE,
    fail,
  );
  const repo = new KeysRepository(db);
  const config = loadConfig();
  const service = new KeysService(repo, config, new CursorCodec(config.cursorSecret));
  if (command === 'create') {
    if (!values.email) fail('--email is required (create the person first: npm run users -- create)\n' + USAGE);
    const scopes = (values.scopes ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = scopes.filter((s) => !isScope(s));
    if (bad.length > 0) fail(`--scopes: unknown scope(s) ${bad.join(', ')}`);
    const plan = (values.plan ?? 'free') as Plan;
    if (!(PLANS as readonly string[]).includes(plan)) fail(`--plan must be one of ${PLANS.join(', ')}`);
    const expiresAt = values.expires ? expiryOf(values.expires) : null;
    if (expiresAt === undefined)
      fail(
        '--expires must be a date YYYY-MM-DD (the end of that day, UTC) or a timestamp with its zone, like 2027-01-01T12:00:00Z',
      );
    const minter = await service.minterForPerson({ email: values.email }, values.fund ?? null);
    const { row, ...minted } = await service.mint(minter, {
      name: values.name ?? `${values.email} key`,
      scopes: scopes as Scope[],
      plan,
      expiresAt,
    });
    if (values.json) process.stdout.write(JSON.stringify({ ...minted, owner: keySummary(row).owner }) + '\n');
    else
      process.stdout.write(
        `Created key ${minted.id} (${minted.scopes.join(', ') || 'no scopes'}; fund ${minted.fund?.slug ?? 'none'}; plan ${minted.plan}).\nKey (shown once): ${minted.key}\n`,
      );
  } else if (command === 'list') {
    const rows = (await repo.allKeys()).map(keySummary);
    if (values.json) process.stdout.write(JSON.stringify(rows) + '\n');
    else
      for (const k of rows) {
        process.stdout.write(
          `${k.id}  ${k.displayPrefix}…${k.lastFour}  ${k.account.name}  ${k.fund?.slug ?? '-'}  ${k.plan}  ${k.scopes.join(',')}${k.revokedAt ? '  REVOKED' : ''}\n`,
        );
      }
  } else if (command === 'revoke') {
    const id = positionals[0];
    if (!id || !/^[0-9a-f-]{36}$/i.test(id)) fail('revoke needs a key id (UUID)');
    if (!(await repo.keyById(id))) fail(`key ${id} was not found`);
    const revoked = await repo.revokeKeyAndDerived(id);
    process.stdout.write(
      `Revoked ${id}: ${revoked.keys} live key(s) revoked, counting those minted from it; ` +
        `${revoked.webhooks} webhook subscription(s) they held disabled\n`,
    );
  } else {
    fail(USAGE);
  }
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  if (!['create', 'list', 'revoke'].includes(argv[0]) || argv.includes('--help')) fail(USAGE); // before connecting
  withDatabase(2, (db) => run(db, argv)).catch((err: Error) => {
    const message = err instanceof ProblemError ? err.detail : err.message;
    process.stderr.write(`keys: ${message}\n`);
    process.exitCode = 1;
  });
}

/**
 * A calendar date is the end of that day in UTC (as the console's "Expires on"); a timestamp must say
 * its zone. Undefined when it is neither (JavaScript would roll 2030-02-31 into March, or read a
 * zoneless time as local).
 */
function expiryOf(value: string): Date | null | undefined {
  if (isIsoDate(value)) return new Date(`${value}T23:59:59.999Z`);
  const stamp = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  const at = stamp && isIsoDate(stamp[1]) ? new Date(value) : null;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}
