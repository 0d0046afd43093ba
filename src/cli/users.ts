import 'reflect-metadata';
import { type DataSource } from 'typeorm';
import { commandOptions, withDatabase } from './options';
import { isRole, PLANS } from '../common/auth/scopes';
import { loadConfig, type Plan } from '../config/config';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../identity/password';
import { passwordChangedMail } from '../identity/password-reset.service';
import { PasswordResetsRepository } from '../identity/password-resets.repository';
import { Mailer, sendFailure } from '../mail/mailer';
import { RoleNotLoweredError, upsertPerson } from '../identity/people';
import { SessionsRepository } from '../identity/sessions.repository';
import { ConnectedApps } from '../oauth/connected-apps';
import { UsersRepository } from '../identity/users.repository';

/**
 * Operator CLI for people (passwords are read from stdin, never from arguments or the environment):
 *   npm run users -- create --email E --name N [--fund SLUG --role ROLE] [--plan P] --password-stdin [--json]
 *   npm run users -- list [--json]
 *   npm run users -- disable <email>          (also ends their console sessions, disconnects their OAuth apps and closes their password reset links; their keys stop working)
 *   npm run users -- enable <email>           (signs in again; their keys work again; disconnected apps stay disconnected, reset links closed)
 *   npm run users -- set-plan <email> <plan>
 *   npm run users -- set-password <email> --password-stdin   (a new password ends their sessions, disconnects their OAuth apps and closes their reset links; keys are kept; mailed a notice where SMTP_URL is set)
 */
const USAGE =
  'usage: users create --email E --name N [--fund SLUG --role viewer|analyst|manager|admin] [--plan P] --password-stdin [--json] | users list [--json] | users disable <email> | users enable <email> | users set-plan <email> <plan> | users set-password <email> --password-stdin';

class UsageError extends Error {}

async function readPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new UsageError(`the password (stdin) must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  }
  return password;
}

async function create(db: DataSource, v: Record<string, string | boolean | undefined>): Promise<void> {
  const email = String(v.email ?? '');
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new UsageError('--email must be an email address');
  if (!v.name) throw new UsageError('--name is required');
  if ((v.fund === undefined) !== (v.role === undefined)) throw new UsageError('--fund and --role go together');
  if (v.role !== undefined && !isRole(String(v.role)))
    throw new UsageError('--role must be viewer, analyst, manager or admin');
  const plan = v.plan === undefined ? undefined : planOf(String(v.plan));
  if (!v['password-stdin']) throw new UsageError('--password-stdin is required (pipe the password in)');
  const password = await readPassword();
  const role = String(v.role); // checked by isRole above whenever --role is given
  const fund = v.fund && isRole(role) ? { slug: String(v.fund), role, refuseLower: true } : undefined;
  const result = await upsertPerson(db, { email, displayName: String(v.name), password, plan, fund }).catch(
    (err: unknown) => {
      throw err instanceof RoleNotLoweredError ? new UsageError(err.message) : err;
    },
  );
  const out = {
    userId: result.userId,
    email: email.toLowerCase(),
    created: result.created,
    renamed: result.renamed,
    fund: fund?.slug ?? null,
    role: result.role, // the role stored (an existing higher one is kept, never lowered)
    passwordChanged: result.passwordChanged, // an existing person's password replaced (as set-password)
  };
  const renamed = result.renamed ? `, name now "${String(v.name)}"` : '';
  const notice = result.passwordChanged ? `, password changed; ${await mailPasswordNotice(out.email)}` : '';
  process.stdout.write(
    v.json
      ? JSON.stringify(out) + '\n'
      : `${result.created ? 'Created' : 'Updated'} ${out.email} (${out.userId})${renamed}${fund ? `, ${out.role} on ${fund.slug}` : ''}${notice}\n`,
  );
}

function planOf(raw: string): Plan {
  if (!(PLANS as readonly string[]).includes(raw)) throw new UsageError(`plan must be one of ${PLANS.join(', ')}`);
  return raw as Plan;
}

async function userOrFail(users: UsersRepository, email: string | undefined) {
  const user = email ? await users.byEmail(email) : null;
  if (!user) throw new UsageError(`no person with email ${email ?? '(missing)'}`);
  return user;
}

const COMMANDS = ['create', 'list', 'disable', 'enable', 'set-plan', 'set-password'];

async function run(db: DataSource, argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!COMMANDS.includes(command)) throw new UsageError(USAGE); // also --help and no command at all
  const { values, positionals } = commandOptions(
    rest,
    {
      email: { type: 'string' },
      name: { type: 'string' },
      fund: { type: 'string' },
      role: { type: 'string' },
      plan: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    USAGE,
    (message) => {
      throw new UsageError(message);
    },
  );
  const users = new UsersRepository(db);
  if (command === 'create') return create(db, values);
  if (command === 'list') {
    const rows = (await users.list()).map((u) => ({
      id: u.id,
      email: u.email,
      displayName: u.display_name,
      status: u.status,
      plan: u.plan,
      totp: u.totp_enabled_at !== null,
      hasPassword: u.password_hash !== null,
      memberships: u.memberships ?? '',
    }));
    if (values.json) process.stdout.write(JSON.stringify(rows) + '\n');
    else
      for (const u of rows)
        process.stdout.write(
          `${u.id}  ${u.email}  ${u.status}  ${u.plan}  ${u.memberships || '-'}${u.hasPassword ? '' : '  (no password)'}\n`,
        );
    return;
  }
  const user = await userOrFail(users, positionals[0]);
  if (command === 'disable') {
    const ended = await users.transaction(async (m) => {
      await users.with(m).setStatus(user.id, 'disabled');
      await new PasswordResetsRepository(db).with(m).closeOpenOf(user.id); // a reset link never outlives it
      return {
        sessions: await new SessionsRepository(db).with(m).revokeAllOf(user.id),
        apps: await ConnectedApps.over(db).endAllOf(m, user.id),
      };
    });
    process.stdout.write(
      `Disabled ${user.email}; ${ended.sessions} console session(s) ended, ${ended.apps} connected OAuth app(s) disconnected; their keys are refused within seconds\n`,
    );
  } else if (command === 'enable') {
    await users.transaction(async (m) => {
      await users.with(m).setStatus(user.id, 'active');
      // links mailed before the person was disabled stay closed (disable closed them; this also covers a
      // status changed by hand in the database)
      await new PasswordResetsRepository(db).with(m).closeOpenOf(user.id);
    });
    process.stdout.write(`Enabled ${user.email}; they can sign in again and their unrevoked keys work again\n`);
  } else if (command === 'set-plan') {
    await users.setPlan(user.id, planOf(positionals[1] ?? ''));
    process.stdout.write(
      `Plan of ${user.email} is now ${positionals[1]} (new keys up to this plan; existing keys keep theirs)\n`,
    );
  } else {
    if (!values['password-stdin']) throw new UsageError('--password-stdin is required');
    const person = { email: user.email, displayName: user.display_name, password: await readPassword() };
    const { passwordChanged } = await upsertPerson(db, person);
    process.stdout.write(
      passwordChanged
        ? `Password of ${user.email} set; ${await mailPasswordNotice(user.email)}\n`
        : `Password of ${user.email} unchanged: it was already this one\n`,
    );
  }
}

/**
 * Tells the person by mail that an operator set their password, as the console does after a change;
 * answers what happened, for stdout. A mail that cannot be sent is said on stderr too (the password
 * stays set and the exit code 0: the change was made).
 */
async function mailPasswordNotice(email: string): Promise<string> {
  const config = loadConfig();
  if (!config.mail) return 'no notice mailed (SMTP_URL is not set)';
  const mailer = new Mailer(config);
  try {
    await mailer.send({ to: email, ...passwordChangedMail(email, new Date(), 'operator') });
    return 'they were mailed a notice';
  } catch (err) {
    process.stderr.write(`users: the password changed notice to ${email} was not sent (${sendFailure(err)})\n`);
    return 'the notice could not be mailed';
  } finally {
    mailer.onModuleDestroy();
  }
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  // the usage (--help, no or an unknown command) before connecting: it needs no database
  const usage = !COMMANDS.includes(argv[0]) || argv.includes('--help');
  (usage ? Promise.reject(new UsageError(USAGE)) : withDatabase(2, (db) => run(db, argv))).catch((err: Error) => {
    process.stderr.write(`users: ${err.message}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  });
}
