import { bootApp, call, createFund, dbOf, ensurePerson, type TestApp, uniqueName } from '../utils/app';
import type { Redis } from 'ioredis';
import { upsertPerson } from '../../src/identity/people';
import { base32Decode, hotp } from '../../src/identity/totp';
import { REDIS } from '../../src/redis/redis.module';
import { CONSOLE_IP, consoleCall, cookieFrom, HOST, ORIGIN, PASSWORD, person, signIn } from './console';

/** Console sign-in and sessions over HTTP: fixation, CSRF, lockout, TOTP, sign-out everywhere. */
describe('console sessions (e2e)', () => {
  let app: TestApp;
  let fund: { id: string; slug: string };

  beforeAll(async () => {
    app = await bootApp();
    fund = await createFund(app);
  });
  afterAll(() => app.close());

  const signInRaw = (body: Record<string, unknown>, headers: Record<string, string> = {}, ip?: string) =>
    call(app, 'POST', '/api/v1/console/sign-in', { body, ip, headers: { host: HOST, origin: ORIGIN, ...headers } });

  it('signs in: an HttpOnly SameSite=Lax cookie, a session view, and GET /me as the person', async () => {
    const p = await person(app, fund.slug, 'manager');
    const res = await signInRaw({ email: p.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^fg_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(res.json.user).toEqual({
      id: p.userId,
      email: p.email,
      displayName: p.email,
      plan: 'developer',
      totpEnabled: false,
    });
    expect(res.json.memberships).toEqual([
      {
        fund: { slug: fund.slug, name: `Fund ${fund.slug}` },
        role: 'manager',
        scopes: ['fund:read', 'fund:propose', 'proposals:review', 'nav:publish'],
        approvalRequiresTotp: false,
      },
    ]);
    expect(res.body).not.toMatch(/password|scrypt/i);
    const s = { cookie: cookieFrom(res.headers)!, csrf: res.json.csrfToken, userId: p.userId };
    const me = await consoleCall(app, 'GET', '/api/v1/me', s, { fund: fund.slug });
    expect(me.json).toMatchObject({
      via: 'session',
      keyId: null,
      userId: p.userId,
      role: 'manager',
      fund: { slug: fund.slug },
    });
    const noFund = await consoleCall(app, 'GET', '/api/v1/me', s);
    expect(noFund.json).toMatchObject({ fund: null, scopes: [] });
    expect((await consoleCall(app, 'GET', '/api/v1/me', s, { fund: 'not-my-fund' })).status).toBe(403);
    // The fund read API stays key-only.
    expect((await consoleCall(app, 'GET', '/api/v1/fund/overview', s, { fund: fund.slug })).status).toBe(401);
  });

  it('over HTTPS (trusted proxy) the cookie is __Host- prefixed and Secure', async () => {
    const proxied = await bootApp({ trustedProxies: ['127.0.0.1'] });
    try {
      const p = await person(app, null, null);
      const res = await call(proxied, 'POST', '/api/v1/console/sign-in', {
        body: { email: p.email, password: PASSWORD },
        headers: { host: HOST, origin: `https://${HOST}`, 'x-forwarded-proto': 'https' },
      });
      expect(res.status).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(
        /^__Host-fg_session=[^;]+; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
    } finally {
      await proxied.close();
    }
  });

  it('fixation: signing in gives a new session id and ends the one the browser held', async () => {
    const p = await person(app, null, null);
    const first = p.session;
    const again = await call(app, 'POST', '/api/v1/console/sign-in', {
      body: { email: p.email, password: PASSWORD },
      headers: { host: HOST, origin: ORIGIN, cookie: first.cookie },
    });
    expect(again.status).toBe(200);
    const second = cookieFrom(again.headers)!;
    expect(second).not.toBe(first.cookie);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', first)).status).toBe(401);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', { ...first, cookie: second })).status).toBe(200);
  });

  it('CSRF: a state change without the token, with a wrong token or from another origin is refused', async () => {
    const p = await person(app, fund.slug, 'admin');
    const body = { email: `${uniqueName('x')}@example.com`, role: 'viewer' };
    const invite = (headers: Record<string, string>, session = p.session) =>
      consoleCall(app, 'POST', '/api/v1/console/invitations', session, { fund: fund.slug, body, headers });
    const noToken = await consoleCall(
      app,
      'POST',
      '/api/v1/console/invitations',
      { ...p.session, csrf: '' },
      { fund: fund.slug, body, headers: { 'x-csrf-token': '' } },
    );
    expect([noToken.status, noToken.json.code]).toEqual([403, 'csrf_failed']);
    const wrong = await invite({ 'x-csrf-token': 'A'.repeat(43) });
    expect([wrong.status, wrong.json.code]).toEqual([403, 'csrf_failed']);
    const evil = await invite({ origin: 'https://evil.example' });
    expect([evil.status, evil.json.code]).toEqual([403, 'csrf_failed']);
    const noOrigin = await call(app, 'POST', '/api/v1/console/invitations', {
      body,
      headers: { host: HOST, cookie: p.session.cookie, 'x-csrf-token': p.session.csrf, 'x-fundgate-fund': fund.slug },
    });
    expect(noOrigin.json.code).toBe('csrf_failed');
    const fetchSite = await call(app, 'POST', '/api/v1/console/invitations', {
      body,
      headers: {
        host: HOST,
        cookie: p.session.cookie,
        'x-csrf-token': p.session.csrf,
        'x-fundgate-fund': fund.slug,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(fetchSite.status).toBe(201);
    expect(
      Number((await dbOf(app).query('SELECT count(*) FROM invitations WHERE email = $1', [body.email]))[0].count),
    ).toBe(1);
    // Sign-in from another origin (login CSRF) is refused too.
    expect(
      (await signInRaw({ email: p.email, password: PASSWORD }, { origin: 'https://evil.example' })).json.code,
    ).toBe('csrf_failed');
  });

  it('lockout: the same 401 for unknown email and wrong password; 429 after 5 failures in 15 minutes', async () => {
    const p = await person(app, null, null);
    const unknown = await signInRaw({ email: `${uniqueName('nobody')}@example.com`, password: 'whatever-it-is' });
    const wrong = await signInRaw({ email: p.email, password: 'not the password' });
    expect([unknown.status, unknown.json.code, unknown.json.detail]).toEqual([
      wrong.status,
      wrong.json.code,
      wrong.json.detail,
    ]);
    expect(wrong.status).toBe(401);
    for (let i = 0; i < 4; i++)
      expect((await signInRaw({ email: p.email, password: 'still wrong!' })).status).toBe(401);
    const locked = await signInRaw({ email: p.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe('rate_limited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    const ghost = `${uniqueName('ghost')}@example.com`;
    for (let i = 0; i < 5; i++) await signInRaw({ email: ghost, password: 'x' });
    expect((await signInRaw({ email: ghost, password: 'x' })).status).toBe(429); // unknown emails lock the same way
  });

  it('a lockout holds for the address that failed: the person still signs in from another (an IPv6 /64 is one address)', async () => {
    const p = await person(app, null, null);
    const stranger = '2001:db8:7:1::a';
    for (let i = 0; i < 5; i++)
      expect((await signInRaw({ email: p.email, password: `guess ${i}` }, {}, `2001:db8:7:1::${i + 1}`)).status).toBe(
        401,
      );
    // another host of the same /64 is the same stranger
    const locked = await signInRaw({ email: p.email, password: PASSWORD }, {}, stranger);
    expect([locked.status, locked.json.detail]).toEqual([429, expect.stringContaining('from this address')]);
    expect((await signInRaw({ email: p.email, password: PASSWORD }, {}, '198.51.100.23')).status).toBe(200);
  });

  it('an email locks for every address after 50 failures from many addresses together', async () => {
    const p = await person(app, null, null);
    for (let a = 0; a < 10; a++)
      for (let i = 0; i < 5; i++)
        expect((await signInRaw({ email: p.email, password: `guess ${i}` }, {}, `203.0.113.${a + 1}`)).status).toBe(
          401,
        );
    const locked = await signInRaw({ email: p.email, password: PASSWORD }, {}, '198.51.100.24');
    expect([locked.status, locked.json.detail]).toEqual([429, expect.stringMatching(/for this email; try again/)]);
  });

  it('lockout holds under parallel guesses: of 12 wrong passwords sent at once, 5 are checked and 7 refused with 429', async () => {
    const p = await person(app, null, null);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signInRaw({ email: p.email, password: `guess number ${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect((await signInRaw({ email: p.email, password: PASSWORD })).status).toBe(429);
  });

  it('an email spelled with a letter PostgreSQL folds differently (İ) neither signs in nor gets a lockout count of its own', async () => {
    const email = `${uniqueName('admin')}@example.com`;
    await ensurePerson(app, email, 'developer', null, null, PASSWORD);
    const dotted = email.replace('i', 'İ'); // PostgreSQL's lower() makes it "admin", JavaScript's "admi̇n"
    expect((await signInRaw({ email: dotted, password: PASSWORD })).status).toBe(401);
    expect((await signInRaw({ email: email.toUpperCase(), password: PASSWORD })).status).toBe(200);
  });

  it('an attempt that is neither a failure nor a success (TOTP code missing) does not count towards the lockout', async () => {
    const p = await person(app, null, null);
    const enrol = await consoleCall(app, 'POST', '/api/v1/console/account/totp/enroll', p.session, {
      body: { password: PASSWORD },
    });
    const code = hotp(base32Decode(enrol.json.secret), Math.floor(Date.now() / 30_000));
    const confirm = await consoleCall(app, 'POST', '/api/v1/console/account/totp/confirm', p.session, {
      body: { code },
    });
    expect(confirm.status).toBe(200);
    for (let i = 0; i < 7; i++) {
      const res = await signInRaw({ email: p.email, password: PASSWORD });
      expect([res.status, res.json.code]).toEqual([401, 'totp_required']);
    }
    expect((await signInRaw({ email: p.email, password: 'wrong' })).status).toBe(401); // still counted from zero
  });

  it('TOTP: enrol, sign-in needs a code; ±1 step accepted, older refused, a code works once; recovery codes once', async () => {
    const p = await person(app, null, null);
    const enrol = await consoleCall(app, 'POST', '/api/v1/console/account/totp/enroll', p.session, {
      body: { password: PASSWORD },
    });
    expect(enrol.json.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    const [stored] = await dbOf(app).query('SELECT totp_secret FROM users WHERE id = $1', [p.userId]);
    expect(stored.totp_secret).toMatch(/^v1\./); // sealed at rest
    expect(stored.totp_secret).not.toContain(enrol.json.secret);
    const key = base32Decode(enrol.json.secret);
    const step = () => Math.floor(Date.now() / 30_000);
    const confirm = await consoleCall(app, 'POST', '/api/v1/console/account/totp/confirm', p.session, {
      body: { code: hotp(key, step() - 1) },
    });
    expect(confirm.status).toBe(200);
    expect(confirm.json.recoveryCodes).toHaveLength(10);
    const need = await signInRaw({ email: p.email, password: PASSWORD });
    expect([need.status, need.json.code]).toEqual([401, 'totp_required']);
    const old = await signInRaw({ email: p.email, password: PASSWORD, totpCode: hotp(key, step() - 3) });
    expect([old.status, old.json.code]).toEqual([401, 'invalid_credentials']);
    const aheadCode = hotp(key, step() + 1);
    const ahead = await signInRaw({ email: p.email, password: PASSWORD, totpCode: aheadCode });
    expect(ahead.status).toBe(200);
    expect(ahead.json.totpVerifiedAt).not.toBeNull();
    const replay = await signInRaw({ email: p.email, password: PASSWORD, totpCode: aheadCode });
    expect(replay.status).toBe(401); // the same step cannot be used twice
    const recovery = confirm.json.recoveryCodes[0];
    expect((await signInRaw({ email: p.email, password: PASSWORD, totpCode: recovery })).status).toBe(200);
    expect((await signInRaw({ email: p.email, password: PASSWORD, totpCode: recovery })).status).toBe(401);
  });

  it('sign-out ends this session; sign-out everywhere ends them all; a password change ends the others', async () => {
    const p = await person(app, null, null);
    const a = p.session;
    const b = await signIn(app, p.email);
    const c = await signIn(app, p.email);
    const out = await consoleCall(app, 'POST', '/api/v1/console/sign-out', a);
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', a)).status).toBe(401);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', b)).status).toBe(200);
    const all = await consoleCall(app, 'POST', '/api/v1/console/sign-out-everywhere', b);
    expect(all.json.revokedSessions).toBe(2);
    for (const s of [b, c]) expect((await consoleCall(app, 'GET', '/api/v1/console/session', s)).status).toBe(401);
    const d = await signIn(app, p.email);
    const e = await signIn(app, p.email);
    const changed = await consoleCall(app, 'POST', '/api/v1/console/account/password', d, {
      body: { currentPassword: PASSWORD, newPassword: 'an even longer new password' },
    });
    expect(changed.status).toBe(200);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', e)).status).toBe(401);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', d)).status).toBe(200);
    expect((await signInRaw({ email: p.email, password: 'an even longer new password' })).status).toBe(200);
  });

  it('a password change whose sign-out of the other sessions fails changes nothing (one transaction)', async () => {
    const p = await person(app, null, null);
    const other = await signIn(app, p.email);
    const db = dbOf(app);
    const fn = `fail_revoke_${p.userId.replace(/-/g, '')}`;
    await db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.user_id = '${p.userId}' AND NEW.revoked_at IS NOT NULL THEN RAISE EXCEPTION 'revocation refused'; END IF; RETURN NEW; END $$`);
    await db.query(`CREATE TRIGGER ${fn} BEFORE UPDATE ON console_sessions FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const changed = await consoleCall(app, 'POST', '/api/v1/console/account/password', p.session, {
        body: { currentPassword: PASSWORD, newPassword: 'a password that must not stick' },
      });
      expect(changed.status).toBe(500);
    } finally {
      await db.query(`DROP TRIGGER ${fn} ON console_sessions`);
      await db.query(`DROP FUNCTION ${fn}()`);
    }
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', other)).status).toBe(200);
    expect((await signInRaw({ email: p.email, password: 'a password that must not stick' })).status).toBe(401);
    expect((await signInRaw({ email: p.email, password: PASSWORD })).status).toBe(200);
  });

  it('TOTP with a stolen session: enrolling and turning off need the password; wrong codes lock out per person; other sessions end', async () => {
    const p = await person(app, null, null);
    const account = (path: string, body: unknown, session = p.session) =>
      consoleCall(app, 'POST', `/api/v1/console/account/totp/${path}`, session, { body });
    const noPassword = await account('enroll', {});
    expect([noPassword.status, noPassword.json.errors[0].field]).toEqual([400, 'password']);
    const wrong = await account('enroll', { password: 'not the password' });
    expect([wrong.status, wrong.json.code, wrong.json.errors[0].field]).toEqual([
      401,
      'invalid_credentials',
      'password',
    ]);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', p.session)).status).toBe(200); // still signed in
    const enrol = await account('enroll', { password: PASSWORD });
    const key = base32Decode(enrol.json.secret);
    const other = await signIn(app, p.email);
    const confirmed = await account('confirm', { code: hotp(key, Math.floor(Date.now() / 30_000)) });
    expect(confirmed.status).toBe(200);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', other)).status).toBe(401); // ended
    // step-up guesses (the count restarted at the right password): 5 wrong codes, then even a right one is 429
    for (let i = 0; i < 5; i++) expect((await account('verify', { code: '000000' })).status).toBe(401);
    const locked = await account('verify', { code: hotp(key, Math.floor(Date.now() / 30_000) + 1) });
    expect([locked.status, locked.json.code]).toEqual([429, 'rate_limited']);
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    await app.get<Redis>(REDIS).del(`account:fail:${p.userId}`); // the window passes
    // knowing the password never resets the count of wrong codes (enrolling again is refused before any check)
    for (let i = 0; i < 4; i++) expect((await account('verify', { code: '000000' })).status).toBe(401);
    expect((await account('enroll', { password: PASSWORD })).status).toBe(409);
    expect((await account('verify', { code: '000000' })).status).toBe(401);
    expect((await account('verify', { code: hotp(key, Math.floor(Date.now() / 30_000) + 1) })).status).toBe(429);
    await app.get<Redis>(REDIS).del(`account:fail:${p.userId}`);
    const offWithoutPassword = await account('disable', { code: hotp(key, Math.floor(Date.now() / 30_000) + 1) });
    expect([offWithoutPassword.status, offWithoutPassword.json.errors[0].field]).toEqual([400, 'password']);
    const third = await signIn(app, p.email, PASSWORD, { totpCode: confirmed.json.recoveryCodes[0] });
    const off = await account('disable', { code: hotp(key, Math.floor(Date.now() / 30_000) + 1), password: PASSWORD });
    expect(off.status).toBe(200);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', third)).status).toBe(401);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', p.session)).status).toBe(200);
  });

  it("an operator password reset (users CLI) ends the person's sessions; re-applying the same password does not", async () => {
    const p = await person(app, null, null);
    const session = (s = p.session) => consoleCall(app, 'GET', '/api/v1/console/session', s);
    await upsertPerson(dbOf(app), { email: p.email, displayName: 'same', password: PASSWORD });
    expect((await session()).status).toBe(200);
    await upsertPerson(dbOf(app), { email: p.email, displayName: 'reset', password: 'a reset by the operator' });
    expect((await session()).status).toBe(401);
    expect((await signInRaw({ email: p.email, password: 'a reset by the operator' })).status).toBe(200);
  });

  it('two TOTP confirmations at once: one succeeds, the other finds TOTP already on (one set of recovery codes)', async () => {
    const p = await person(app, null, null);
    const enrol = await consoleCall(app, 'POST', '/api/v1/console/account/totp/enroll', p.session, {
      body: { password: PASSWORD },
    });
    const code = hotp(base32Decode(enrol.json.secret), Math.floor(Date.now() / 30_000));
    const both = await Promise.all(
      [1, 2].map(() => consoleCall(app, 'POST', '/api/v1/console/account/totp/confirm', p.session, { body: { code } })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const issued = both.find((r) => r.status === 200)!.json.recoveryCodes as string[];
    const [{ n }] = await dbOf(app).query('SELECT count(*)::int AS n FROM user_recovery_codes WHERE user_id = $1', [
      p.userId,
    ]);
    expect([issued.length, n]).toEqual([10, 10]);
    const [{ step }] = await dbOf(app).query('SELECT totp_last_step::text AS step FROM users WHERE id = $1', [
      p.userId,
    ]);
    expect(step).not.toBeNull(); // the confirming code's step is used in the same transaction
  });

  it('idle and absolute expiry end a session', async () => {
    const p = await person(app, null, null);
    await dbOf(app).query(
      `UPDATE console_sessions SET idle_expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [p.userId],
    );
    const idle = await consoleCall(app, 'GET', '/api/v1/console/session', p.session);
    expect([idle.status, idle.json.code]).toEqual([401, 'unauthenticated']);
    const s = await signIn(app, p.email);
    await dbOf(app).query(
      `UPDATE console_sessions SET absolute_expires_at = now() - interval '1 second' WHERE user_id = $1 AND revoked_at IS NULL`,
      [p.userId],
    );
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', s)).status).toBe(401);
  });

  it('a disabled person cannot sign in and their keys stop working', async () => {
    const p = await person(app, fund.slug, 'viewer');
    const key = await consoleCall(app, 'POST', '/api/v1/admin/keys', p.session, {
      fund: fund.slug,
      body: { name: 'k', scopes: ['fund:read'] },
    });
    await dbOf(app).query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [p.userId]);
    expect((await signInRaw({ email: p.email, password: PASSWORD })).status).toBe(401);
    expect((await consoleCall(app, 'GET', '/api/v1/console/session', p.session)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 2100)); // key cache window
    expect((await call(app, 'GET', '/api/v1/me', { key: key.json.token })).status).toBe(401);
  });

  it('sign-up creates a fund-less free person (password ≥ 12) unless CONSOLE_SIGNUP is off', async () => {
    const email = `${uniqueName('new')}@example.com`;
    const short = await call(app, 'POST', '/api/v1/console/sign-up', {
      body: { email, displayName: 'New', password: 'short' },
      headers: { host: HOST, origin: ORIGIN },
    });
    expect(short.status).toBe(400);
    expect(short.json.errors.map((e: { field: string }) => e.field)).toEqual(['password']);
    const ok = await call(app, 'POST', '/api/v1/console/sign-up', {
      body: { email, displayName: 'New', password: PASSWORD },
      headers: { host: HOST, origin: ORIGIN },
    });
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({ user: { email, plan: 'free' }, memberships: [], signupEnabled: true });
    expect(cookieFrom(ok.headers)).toMatch(/^fg_session=/);
    const [row] = await dbOf(app).query('SELECT password_hash FROM users WHERE email = $1', [email]);
    expect(row.password_hash).toMatch(/^scrypt\$15\$8\$1\$/);
    const twice = await call(app, 'POST', '/api/v1/console/sign-up', {
      body: { email, displayName: 'New', password: PASSWORD },
      headers: { host: HOST, origin: ORIGIN },
    });
    expect(twice.status).toBe(409);
    const closed = await bootApp({ consoleSignup: false });
    try {
      const res = await call(closed, 'POST', '/api/v1/console/sign-up', {
        body: { email: `${uniqueName('n')}@example.com`, displayName: 'N', password: PASSWORD },
        headers: { host: HOST, origin: ORIGIN },
      });
      expect([res.status, res.json.code]).toEqual([403, 'forbidden']);
    } finally {
      await closed.close();
    }
  });

  it("usage and activity with a session cover the person's keys and console requests", async () => {
    const p = await person(app, fund.slug, 'viewer');
    const key = await consoleCall(app, 'POST', '/api/v1/admin/keys', p.session, {
      fund: fund.slug,
      body: { name: 'k', scopes: ['fund:read'] },
    });
    await call(app, 'GET', '/api/v1/me', { key: key.json.token });
    const before = await consoleCall(app, 'GET', '/api/v1/usage', p.session, { fund: fund.slug });
    // a keyless calculator call from this browser's address (the free web tools) is the session's calculator day
    await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: {}, ip: CONSOLE_IP });
    const usage = await consoleCall(app, 'GET', '/api/v1/usage', p.session, { fund: fund.slug });
    expect(usage.status).toBe(200);
    expect(usage.json.keyId).toBeNull();
    expect(usage.json.calculatorDaily.used).toBe(before.json.calculatorDaily.used + 1);
    expect(usage.json.calculatorDaily.limit).toBe(500);
    expect(usage.json.routes.map((r: { route: string }) => r.route)).toEqual(
      expect.arrayContaining(['/api/v1/me', '/api/v1/admin/keys']),
    );
    const activity = await consoleCall(app, 'GET', '/api/v1/admin/activity', p.session, { fund: fund.slug });
    expect(activity.status).toBe(200);
    const items = activity.json.items as { keyId: string | null; userId: string | null }[];
    expect(items.some((i) => i.keyId === key.json.id)).toBe(true);
    expect(items.some((i) => i.keyId === null && i.userId === p.userId)).toBe(true);
    expect(items.every((i) => i.userId === p.userId)).toBe(true);
  });
});
