import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runCli } from '../utils/cli';

/** `npm run users` (and `npm run keys`): the operator's CLIs, as child processes against the test database. */
describe('users CLI (e2e, child processes)', () => {
  const env = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: process.env.REDIS_URL! };
  const users = (args: string[], stdin?: string) => runCli('src/cli/users.ts', args, env, { stdin });
  const statusOf = async (email: string) => {
    const out = await users(['list', '--json']);
    return (JSON.parse(out.stdout) as { email: string; status: string }[]).find((u) => u.email === email)?.status;
  };

  it('--help, no command and an unknown option print the usage (exit 2) without touching anyone', async () => {
    for (const args of [['--help'], [], ['list', '--jsn']]) {
      const out = await users(args);
      expect([out.code, out.stderr]).toEqual([2, expect.stringContaining('usage: users create --email E')]);
    }
  }, 60_000);

  it('keys: an unknown option prints the usage and exits 2 (it was exit 1 with a bare parser error)', async () => {
    const out = await runCli('src/cli/keys.ts', ['list', '--jsn'], env);
    expect([out.code, out.stderr]).toEqual([2, expect.stringContaining('usage: keys create --email')]);
  }, 60_000);

  it('a person disabled by the operator can be enabled again', async () => {
    const email = `cli-${randomBytes(4).toString('hex')}@example.com`;
    const created = await users(
      ['create', '--email', email, '--name', 'Cli Person', '--password-stdin'],
      'a long passphrase 1\n',
    );
    expect([created.code, created.stdout]).toEqual([0, expect.stringMatching(/^Created /)]);
    expect((await users(['disable', email])).code).toBe(0);
    expect(await statusOf(email)).toBe('disabled');
    const enabled = await users(['enable', email]);
    expect([enabled.code, enabled.stdout]).toEqual([
      0,
      `Enabled ${email}; they can sign in again and their unrevoked keys work again\n`,
    ]);
    expect(await statusOf(email)).toBe('active');
  }, 60_000);

  it('create prints the role actually stored, refuses to lower one (exit 2, nothing changed) and updates the name', async () => {
    const slug = `cli-fund-${randomBytes(4).toString('hex')}`;
    const pg = new Client({ connectionString: env.DATABASE_URL });
    await pg.connect();
    try {
      await pg.query(`INSERT INTO funds (slug, name) VALUES ($1, $1)`, [slug]);
      const email = `cli-${randomBytes(4).toString('hex')}@example.com`;
      const create = (name: string, role: string) =>
        users(
          ['create', '--email', email, '--name', name, '--fund', slug, '--role', role, '--password-stdin', '--json'],
          'a long passphrase 1\n',
        );
      const first = await create('First Name', 'manager');
      expect([first.code, JSON.parse(first.stdout)]).toEqual([0, expect.objectContaining({ role: 'manager' })]);
      const lower = await create('Second Name', 'viewer');
      expect(lower.code).toBe(2);
      expect(lower.stderr).toContain(`${email} is manager on ${slug}, higher than viewer`);
      expect(lower.stderr).toContain('Members page');
      const stored = async () =>
        (
          await pg.query(
            `SELECT u.display_name AS name, m.role FROM users u JOIN fund_members m ON m.user_id = u.id
              JOIN funds f ON f.id = m.fund_id WHERE u.email = $1 AND f.slug = $2`,
            [email, slug],
          )
        ).rows[0];
      expect(await stored()).toEqual({ name: 'First Name', role: 'manager' }); // nothing changed
      const same = await create('Third Name', 'manager');
      expect([same.code, JSON.parse(same.stdout)]).toEqual([
        0,
        expect.objectContaining({ created: false, renamed: true, role: 'manager' }),
      ]);
      const higher = await users(
        ['create', '--email', email, '--name', 'Third Name', '--fund', slug, '--role', 'admin', '--password-stdin'],
        'a long passphrase 1\n',
      );
      expect(higher.stdout).toMatch(/^Updated .*, admin on /);
      expect(await stored()).toEqual({ name: 'Third Name', role: 'admin' });
      expect(JSON.parse(same.stdout).passwordChanged).toBe(false);
      // another password for an existing person is an operator's password change: said, and noticed by mail where configured
      const repass = await users(
        ['create', '--email', email, '--name', 'Third Name', '--password-stdin'],
        'another long passphrase 2\n',
      );
      expect([repass.code, repass.stdout]).toEqual([
        0,
        expect.stringMatching(/^Updated .*, password changed; no notice mailed \(SMTP_URL is not set\)\n$/),
      ]);
    } finally {
      await pg.end();
    }
  }, 120_000);
});
