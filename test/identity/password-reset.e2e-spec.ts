import { randomBytes } from 'node:crypto';
import { SecretSealer } from '../../src/common/crypto/sealer';
import type Redis from 'ioredis';
import { PasswordResetService } from '../../src/identity/password-reset.service';
import { signInCounters } from '../../src/identity/sign-in.service';
import { REDIS } from '../../src/redis/redis.module';
import { newTotpSecret } from '../../src/identity/totp';
import { bootApp, call, dbOf, ensurePerson, randomIp, type TestApp, uniqueName } from '../utils/app';
import { runCli } from '../utils/cli';
import { consoleCall, cookieFrom, HOST, ORIGIN, PASSWORD, signIn } from './console';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from './smtp-sink';

const NEW_PASSWORD = 'a brand new passphrase 42';
const SMTP_PASS = 'sink-pass-Zq81';
const LINK = /^http:\/\/console\.test\/console\/reset-password\/([A-Za-z0-9_-]{43})$/m;
const RESET_SUBJECT = 'Reset your fundgate console password';
const CHANGED_SUBJECT = 'Your fundgate console password was changed';

/**
 * "Forgot your password?" over HTTP with a real SMTP server (smtp-server on a random port): the mail
 * (envelope, From, To, subject, link), the reset (old password refused, new one signs in, every
 * session ended, the link single use, TOTP kept), no enumeration (unknown and disabled emails: the
 * same 202, no mail), the per-email and per-address limits, SMTP unset, a failing mail server, and
 * the token in neither the activity log nor the logs.
 */
describe('password reset by email (e2e)', () => {
  let app: TestApp;
  let noMail: TestApp;
  let sink: SmtpSink;
  const logged: string[] = [];
  let writeSpy: jest.SpyInstance;

  beforeAll(async () => {
    sink = await startSmtpSink();
    noMail = await bootApp();
    writeSpy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
    app = await bootApp(
      { logLevel: 'debug', publicBaseUrl: ORIGIN },
      {
        SMTP_URL: `smtp://sink-user:${SMTP_PASS}@127.0.0.1:${sink.port}`,
        MAIL_FROM: 'fundgate <no-reply@fund.example>',
      },
    );
  });
  afterAll(async () => {
    await app?.close();
    await noMail?.close();
    writeSpy?.mockRestore();
    await sink?.close();
  });

  const ip = randomIp();
  const post = (url: string, body: unknown, from = ip, target = app) =>
    call(target, 'POST', url, { body, ip: from, headers: { host: HOST, origin: ORIGIN } });
  const ask = (email: string, from = ip) => post('/api/v1/console/password-reset', { email }, from);
  const settled = () => app.get(PasswordResetService).settled();
  const received = (email: string, subject: string) =>
    sink.mails.filter((m) => m.rcptTo.includes(email) && m.headers.subject === subject);
  const mailsTo = (email: string) => received(email, RESET_SUBJECT);
  const noticesTo = (email: string) => received(email, CHANGED_SUBJECT);
  const tokenOf = (mail: ReceivedMail) => LINK.exec(mail.text)![1];
  const newPerson = async () => {
    const email = `${uniqueName('reset')}@example.com`;
    const ids = await ensurePerson(app, email, 'free', null, null, PASSWORD);
    return { ...ids, email };
  };
  /** Asks for a link for `email` and answers its token (from the mail the sink received). */
  const linkFor = async (email: string) => {
    const before = mailsTo(email).length;
    expect((await ask(email, randomIp())).status).toBe(202);
    await settled();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(before + 1);
    return tokenOf(mails[mails.length - 1]);
  };

  it('mails an active person a link; the link sets a new password and ends every session', async () => {
    const p = await newPerson();
    const first = await signIn(app, p.email);
    const second = await signIn(app, p.email);
    expect((await call(app, 'GET', '/api/v1/console/password-reset')).json).toEqual({ enabled: true });

    const res = await ask(p.email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.json).toEqual({
      message: expect.stringContaining('if an active account uses this email'),
      expiresInMinutes: 30,
    });
    await settled();
    const [mail] = mailsTo(p.email);
    expect(mail).toMatchObject({
      mailFrom: 'no-reply@fund.example',
      rcptTo: [p.email],
      auth: { user: 'sink-user', pass: SMTP_PASS },
    });
    expect(mail.headers.from).toBe('fundgate <no-reply@fund.example>');
    expect(mail.headers.to).toBe(p.email);
    expect(mail.headers.subject).toBe('Reset your fundgate console password');
    expect(mail.headers['auto-submitted']).toBe('auto-generated');
    expect(mail.text).toContain('within 30 minutes (it works once)');
    const token = tokenOf(mail);

    const preview = await call(app, 'GET', `/api/v1/console/password-reset/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.headers['cache-control']).toMatch(/\bno-store\b/);
    expect(preview.json.email).toBe(`r***@example.com`);
    const minutes = (Date.parse(preview.json.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);

    const weak = await post(`/api/v1/console/password-reset/${token}`, { password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.json.errors.map((e: { field: string }) => e.field)).toEqual(['password']);

    const done = await post(`/api/v1/console/password-reset/${token}`, { password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ ok: true });
    expect(done.headers['set-cookie']).toBeUndefined(); // the person signs in afterwards
    for (const answer of [weak, done]) expect(answer.headers['cache-control']).toMatch(/\bno-store\b/);

    // the person is told, by mail, that the password changed: who, when, what to do; no link, no token
    await settled();
    expect(noticesTo(p.email)).toHaveLength(1);
    const [notice] = noticesTo(p.email);
    expect(notice).toMatchObject({ mailFrom: 'no-reply@fund.example', rcptTo: [p.email] });
    expect(notice.headers['auto-submitted']).toBe('auto-generated');
    expect(notice.text).toContain(`account ${p.email}`);
    expect(notice.text).toMatch(
      /on \d{4}-\d{2}-\d{2} at \d{2}:\d{2} UTC,\r?\nwith a password reset link sent to this address/,
    );
    expect(notice.text).toContain('If you did not');
    expect(notice.text).not.toMatch(/https?:|reset-password/);
    expect(notice.raw).not.toContain(token);

    for (const s of [first, second])
      expect((await consoleCall(app, 'GET', '/api/v1/console/session', s)).status).toBe(401);
    const old = await post('/api/v1/console/sign-in', { email: p.email, password: PASSWORD });
    expect(old.status).toBe(401);
    expect(old.json.code).toBe('invalid_credentials');
    const fresh = await post('/api/v1/console/sign-in', { email: p.email, password: NEW_PASSWORD });
    expect(fresh.status).toBe(200);
    expect(cookieFrom(fresh.headers)).toBeTruthy();

    const again = await post(`/api/v1/console/password-reset/${token}`, { password: 'yet another passphrase' });
    expect(again.status).toBe(410);
    expect(again.json.code).toBe('gone');
    expect((await call(app, 'GET', `/api/v1/console/password-reset/${token}`)).status).toBe(410);
  });

  it('answers an unknown or disabled email exactly as a known one, and mails neither', async () => {
    const known = await newPerson();
    const disabled = await newPerson();
    await dbOf(app).query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [disabled.userId]);
    const unknown = `${uniqueName('nobody')}@example.com`;
    const answers = [];
    for (const email of [known.email, unknown, disabled.email]) answers.push(await ask(email, randomIp()));
    await settled();
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(mailsTo(known.email)).toHaveLength(1);
    expect(mailsTo(unknown)).toHaveLength(0);
    expect(mailsTo(disabled.email)).toHaveLength(0);
    const rows = await dbOf(app).query(
      `SELECT u.email FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = ANY($1)`,
      [[known.email, disabled.email]],
    );
    expect(rows).toEqual([{ email: known.email }]);
  });

  it('a newer link replaces an older one; an expired link and a disabled person are 410, an unknown one 404', async () => {
    const p = await newPerson();
    const older = await linkFor(p.email);
    const newer = await linkFor(p.email);
    const refused = await post(`/api/v1/console/password-reset/${older}`, { password: NEW_PASSWORD });
    expect([refused.status, refused.json.detail]).toEqual([410, expect.stringContaining('newer')]);

    await dbOf(app).query(
      `UPDATE password_resets SET created_at = now() - interval '31 minutes', expires_at = now() - interval '1 minute'
        WHERE user_id = $1`,
      [p.userId],
    );
    const expired = await call(app, 'GET', `/api/v1/console/password-reset/${newer}`);
    expect([expired.status, expired.json.detail]).toEqual([410, expect.stringContaining('expired')]);
    expect((await post(`/api/v1/console/password-reset/${newer}`, { password: NEW_PASSWORD })).status).toBe(410);

    const live = await linkFor(p.email);
    await dbOf(app).query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [p.userId]);
    expect((await post(`/api/v1/console/password-reset/${live}`, { password: NEW_PASSWORD })).status).toBe(410);

    for (const token of [randomBytes(32).toString('base64url'), 'not-a-token']) {
      expect((await call(app, 'GET', `/api/v1/console/password-reset/${token}`)).status).toBe(404);
      const unknown = await post(`/api/v1/console/password-reset/${token}`, { password: NEW_PASSWORD });
      expect([unknown.status, unknown.json.code]).toEqual([404, 'not_found']);
    }
    // the password never changed
    const [row] = await dbOf(app).query(`SELECT password_hash FROM users WHERE id = $1`, [p.userId]);
    await dbOf(app).query(`UPDATE users SET status = 'active' WHERE id = $1`, [p.userId]);
    expect(row.password_hash).toBeTruthy();
    expect((await post('/api/v1/console/sign-in', { email: p.email, password: PASSWORD })).status).toBe(200);
  });

  it('a password change in the console or by an operator mails the person a notice; it, sign-out-everywhere and disable → enable close open links (410)', async () => {
    const cli = (args: string[], stdin?: string, env: Record<string, string> = {}) =>
      runCli(
        'src/cli/users.ts',
        args,
        { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: process.env.REDIS_URL!, ...env },
        { stdin },
      );
    const sinkEnv = {
      SMTP_URL: `smtp://sink-user:${SMTP_PASS}@127.0.0.1:${sink.port}`,
      MAIL_FROM: 'fundgate <no-reply@fund.example>',
    };
    const closed = async (token: string) => {
      const seen = await call(app, 'GET', `/api/v1/console/password-reset/${token}`);
      const used = await post(`/api/v1/console/password-reset/${token}`, { password: 'an attacker passphrase 9' });
      return [seen.status, used.status];
    };

    const changer = await newPerson();
    const byChange = await linkFor(changer.email);
    const session = await signIn(app, changer.email);
    const changed = await consoleCall(app, 'POST', '/api/v1/console/account/password', session, {
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect(await closed(byChange)).toEqual([410, 410]);
    // the mailbox's owner is told, as after a reset: a change made with a stolen session does not go unseen
    await settled();
    expect(noticesTo(changer.email).map((n) => n.text)).toEqual([
      expect.stringMatching(
        /in the console, by someone signed in to this account\.(\r?\n){2}Its other console sessions/,
      ),
    ]);

    const reset = await newPerson();
    const byOperator = await linkFor(reset.email);
    const set = await cli(['set-password', reset.email, '--password-stdin'], `${NEW_PASSWORD}\n`, sinkEnv);
    expect([set.code, set.stderr]).toEqual([0, '']);
    expect(set.stdout).toBe(`Password of ${reset.email} set; they were mailed a notice\n`);
    expect(noticesTo(reset.email).map((n) => n.text)).toEqual([expect.stringContaining('by a fundgate operator.')]);
    expect(await closed(byOperator)).toEqual([410, 410]);
    const same = await cli(['set-password', reset.email, '--password-stdin'], `${NEW_PASSWORD}\n`, sinkEnv);
    expect(same.stdout).toBe(`Password of ${reset.email} unchanged: it was already this one\n`);
    expect(noticesTo(reset.email)).toHaveLength(1);

    const leaver = await newPerson();
    const byLeaver = await linkFor(leaver.email);
    const everywhere = await consoleCall(
      app,
      'POST',
      '/api/v1/console/sign-out-everywhere',
      await signIn(app, leaver.email),
    );
    expect(everywhere.status).toBe(200);
    expect(await closed(byLeaver)).toEqual([410, 410]);

    const paused = await newPerson();
    const byPause = await linkFor(paused.email);
    expect((await cli(['disable', paused.email])).code).toBe(0);
    expect((await cli(['enable', paused.email])).code).toBe(0);
    expect(await closed(byPause)).toEqual([410, 410]);
    // none of them was changed by the links
    for (const who of [changer, reset])
      expect((await post('/api/v1/console/sign-in', { email: who.email, password: NEW_PASSWORD })).status).toBe(200);
    expect((await post('/api/v1/console/sign-in', { email: paused.email, password: PASSWORD })).status).toBe(200);
  }, 120_000);

  it('a failing mail server after a reset: the password is set, the notice failure logged without the address', async () => {
    const p = await newPerson();
    const token = await linkFor(p.email);
    sink.refuse = true;
    try {
      expect((await post(`/api/v1/console/password-reset/${token}`, { password: NEW_PASSWORD })).status).toBe(200);
      await settled();
    } finally {
      sink.refuse = false;
    }
    expect(noticesTo(p.email)).toHaveLength(0);
    const failure = logged.find((l) => l.includes('password changed notice not sent') && l.includes(p.userId));
    expect(failure).toContain('SMTP 550');
    expect(failure).not.toContain(p.email);
    expect((await post('/api/v1/console/sign-in', { email: p.email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('keeps TOTP: the next sign-in with the new password still asks for the code, and a lockout stays', async () => {
    const p = await newPerson();
    await dbOf(app).query(`UPDATE users SET totp_secret = $2, totp_enabled_at = now() WHERE id = $1`, [
      p.userId,
      app.get(SecretSealer).seal(newTotpSecret()),
    ]);
    const token = await linkFor(p.email);
    expect((await post(`/api/v1/console/password-reset/${token}`, { password: NEW_PASSWORD })).status).toBe(200);
    const res = await post('/api/v1/console/sign-in', { email: p.email, password: NEW_PASSWORD });
    expect([res.status, res.json.code]).toEqual([401, 'totp_required']);

    // with TOTP on, the lockout also bounds guesses of the code: a reset does not lift it (a mailbox
    // reader resetting again and again would get a fresh budget of code guesses each time)
    const from = randomIp();
    const guess = { email: p.email, password: NEW_PASSWORD, totpCode: '000000' };
    for (let i = 0; i < 5; i++) await post('/api/v1/console/sign-in', guess, from);
    const again = await linkFor(p.email);
    expect(
      (await post(`/api/v1/console/password-reset/${again}`, { password: 'yet another passphrase' }, from)).status,
    ).toBe(200);
    const locked = await post('/api/v1/console/sign-in', { ...guess, password: 'yet another passphrase' }, from);
    expect([locked.status, locked.json.code]).toEqual([429, 'rate_limited']);
  });

  it('a reset lifts a sign-in lockout of the email, from this address and from every address', async () => {
    const p = await newPerson();
    const from = randomIp();
    for (let i = 0; i < 5; i++)
      expect(
        (await post('/api/v1/console/sign-in', { email: p.email, password: 'a wrong guess 12345' }, from)).status,
      ).toBe(401);
    const locked = await post('/api/v1/console/sign-in', { email: p.email, password: PASSWORD }, from);
    expect([locked.status, locked.json.code]).toEqual([429, 'rate_limited']);
    // and locked for everyone, as 50 failures from many addresses leave it
    const { everywhere } = signInCounters(p.email, from);
    await app.get<Redis>(REDIS).set(everywhere, '50', 'EX', 900);
    expect((await post('/api/v1/console/sign-in', { email: p.email, password: PASSWORD }, randomIp())).status).toBe(
      429,
    );

    const token = await linkFor(p.email);
    expect((await post(`/api/v1/console/password-reset/${token}`, { password: NEW_PASSWORD }, from)).status).toBe(200);
    for (const address of [from, randomIp()])
      expect((await post('/api/v1/console/sign-in', { email: p.email, password: NEW_PASSWORD }, address)).status).toBe(
        200,
      );
  });

  it('limits requests per email (3 in 15 minutes, from any address) and per address (10), with Retry-After', async () => {
    const p = await newPerson();
    for (let i = 0; i < 3; i++) expect((await ask(p.email, randomIp())).status).toBe(202);
    const perEmail = await ask(p.email, randomIp());
    expect(perEmail.status).toBe(429);
    expect(Number(perEmail.headers['retry-after'])).toBeGreaterThan(0);
    expect(perEmail.json.detail).toContain('for this email');

    const from = randomIp();
    for (let i = 0; i < 10; i++) expect((await ask(`${uniqueName('spray')}@example.com`, from)).status).toBe(202);
    const perAddress = await ask(`${uniqueName('spray')}@example.com`, from);
    expect(perAddress.status).toBe(429);
    expect(Number(perAddress.headers['retry-after'])).toBeGreaterThan(0);
    expect(perAddress.json.detail).toContain('from this address');
    await settled();
    expect(mailsTo(p.email)).toHaveLength(3);
  });

  it('refuses a request from another origin (403 csrf_failed), and a body without a valid email (400)', async () => {
    const foreign = await call(app, 'POST', '/api/v1/console/password-reset', {
      body: { email: 'a@example.com' },
      ip: randomIp(),
      headers: { host: HOST, origin: 'https://evil.example' },
    });
    expect([foreign.status, foreign.json.code]).toEqual([403, 'csrf_failed']);
    const bad = await ask('not-an-email', randomIp());
    expect([bad.status, bad.json.errors[0].field]).toEqual([400, 'email']);
  });

  it('without SMTP_URL: the console is told reset is off, and a request is refused naming the setting', async () => {
    expect((await call(noMail, 'GET', '/api/v1/console/password-reset')).json).toEqual({ enabled: false });
    const res = await post('/api/v1/console/password-reset', { email: 'a@example.com' }, randomIp(), noMail);
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('forbidden');
    expect(res.json.detail).toContain('SMTP_URL');
  });

  it('a failing mail server: the same 202, the failure logged without the link; the token is in no log', async () => {
    const p = await newPerson();
    sink.refuse = true;
    try {
      const res = await ask(p.email, randomIp());
      expect(res.status).toBe(202);
      await settled();
    } finally {
      sink.refuse = false;
    }
    expect(mailsTo(p.email)).toHaveLength(0);
    const failure = logged.find((l) => l.includes('password reset mail not sent'));
    expect(failure).toContain(p.userId);
    expect(failure).toContain('SMTP 550');
    expect(failure).not.toContain(p.email);

    // every token issued in this file: in no log line and in no activity row
    const token = await linkFor(p.email);
    const tokens = [token, ...sink.mails.filter((m) => m.headers.subject === RESET_SUBJECT).map(tokenOf)];
    await post(`/api/v1/console/password-reset/${token}`, { password: NEW_PASSWORD });
    await new Promise((r) => setTimeout(r, 300)); // the activity log flushes every 50 ms in tests
    const all = logged.join('');
    for (const t of tokens) expect(all).not.toContain(t);
    expect(all).not.toContain(SMTP_PASS);
    const activity = await dbOf(app).query(
      `SELECT route, row_to_json(a)::text AS line FROM activity_log a WHERE route LIKE '%password-reset%'`,
    );
    expect(activity.map((a: { route: string }) => a.route)).toContain('/api/v1/console/password-reset/:token');
    for (const t of tokens) expect(activity.some((a: { line: string }) => a.line.includes(t))).toBe(false);
  });
});
