import { createHash, randomBytes } from 'node:crypto';
import { consoleCall, PASSWORD, signIn, type Session } from '../identity/console';
import {
  bootApp,
  call,
  createFund,
  dbOf,
  ensurePerson,
  mintKey,
  type ResponseJson,
  type TestApp,
  uniqueName,
} from '../utils/app';
import { runCli } from '../utils/cli';
import { type Role, SCOPES } from '../../src/common/auth/scopes';
import { McpCatalog } from '../../src/mcp/mcp.catalog';
import { hashSecret } from '../../src/common/crypto/secrets';
import { GRANTABLE_SCOPES } from '../../src/oauth/oauth-tokens';
import { ACCESS_TOKEN_SECONDS, GRANT_MAX_SECONDS } from '../../src/oauth/oauth.service';
import { freePort } from './oauth-client';

/**
 * The life of a connected app after consent, without a browser (the consent is answered through the
 * console API in the browser that started the request): what ends it (sign out everywhere, a password
 * change or reset, disabling the person, losing the fund), what it may refresh into, and for how long.
 */
describe('connected OAuth apps: what ends them', () => {
  let app: TestApp;
  let base: string;
  let fund: { id: string; slug: string };
  let clientId: string;
  const redirectUri = 'http://127.0.0.1:9/callback'; // the code is read from the approval's answer
  const cliEnv = { DATABASE_URL: process.env.DATABASE_URL!, REDIS_URL: process.env.REDIS_URL! };

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await bootApp({ publicBaseUrl: base });
    await app.listen({ port, host: '127.0.0.1' });
    fund = await createFund(app);
    const reg = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Lifecycle Agent',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(reg.status).toBe(201);
    clientId = ((await reg.json()) as { client_id: string }).client_id;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A person with a role on the fund (analyst unless told), signed in to the console, with an API key of their own. */
  async function member(role: Role = 'analyst') {
    const email = `${uniqueName('apps')}@example.com`;
    const ids = await ensurePerson(app, email, 'developer', fund.slug, role, PASSWORD);
    const key = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, account: email, plan: 'developer' });
    return { ...ids, email, key: key.key, session: await signIn(app, email) };
  }

  /** GET /oauth/authorize from a new browser: the pending request, and the person's session in that browser. */
  async function startRequest(session: Session, verifier: string, asked = redirectUri) {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: asked,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 's',
      resource: `${base}/api/mcp`,
    });
    const started = await fetch(`${base}/oauth/authorize?${q.toString()}`, { redirect: 'manual' });
    const browser = started.headers.get('set-cookie')!.split(';')[0];
    return {
      id: new URL(started.headers.get('location')!).searchParams.get('request')!,
      inBrowser: { ...session, cookie: `${session.cookie}; ${browser}` },
    };
  }

  /** Authorize → consent (approved in the starting browser) → code exchange: the app's first tokens and its grant. */
  async function connect(session: Session, scopes: string[] = ['fund:read'], asked = redirectUri) {
    const verifier = randomBytes(32).toString('base64url');
    const { id: requestId, inBrowser } = await startRequest(session, verifier, asked);
    const ok = await consoleCall(app, 'POST', `/api/v1/console/oauth/requests/${requestId}/approve`, inBrowser, {
      body: { fund: fund.slug, scopes },
    });
    expect(ok.status).toBe(200);
    const code = new URL(ok.json.redirectTo).searchParams.get('code')!;
    const exchange = () =>
      token({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: asked,
        client_id: clientId,
      });
    const tokens = await exchange();
    expect(tokens.status).toBe(200);
    const [{ grant }] = await dbOf(app).query('SELECT grant_id AS grant FROM oauth_authorizations WHERE id = $1', [
      requestId,
    ]);
    return {
      access: tokens.json.access_token as string,
      refresh: tokens.json.refresh_token as string,
      grant: grant as string,
      exchange,
    };
  }

  async function token(params: Record<string, string>): Promise<{ status: number; json: ResponseJson }> {
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
    return { status: res.status, json: await res.json() };
  }

  const refresh = (refreshToken: string) =>
    token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  async function mcpStatus(accessToken: string): Promise<number> {
    const res = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    return res.status;
  }

  /** The apps the person's console lists as connected. */
  async function listed(session: Session): Promise<string[]> {
    const res = await consoleCall(app, 'GET', '/api/v1/console/oauth/apps', session);
    expect(res.status).toBe(200);
    return (res.json as { items: { id: string }[] }).items.map((a) => a.id);
  }

  /** Access refused, refresh refused (invalid_grant), and the app's key revoked through the key revocation. */
  async function expectEnded(tokens: { access: string; refresh: string; grant: string }) {
    expect(await mcpStatus(tokens.access)).toBe(401);
    const refreshed = await refresh(tokens.refresh);
    expect([refreshed.status, refreshed.json.error]).toEqual([400, 'invalid_grant']);
    const [row] = await dbOf(app).query(
      'SELECT g.revoked_at IS NOT NULL AS grant_ended, k.revoked_at IS NOT NULL AS key_revoked FROM oauth_grants g JOIN api_keys k ON k.id = g.key_id WHERE g.id = $1',
      [tokens.grant],
    );
    expect(row).toEqual({ grant_ended: true, key_revoked: true });
  }

  const apiKeyStatus = async (key: string) => (await call(app, 'GET', '/api/v1/me', { key })).status;

  describe('ending the person’s sign-ins ends their apps, not their API keys', () => {
    it('sign out everywhere disconnects every app and says how many; the API key keeps working', async () => {
      const p = await member();
      const [one, two] = [await connect(p.session), await connect(p.session)];
      expect(await mcpStatus(one.access)).toBe(200);
      expect(await listed(p.session)).toEqual(expect.arrayContaining([one.grant, two.grant]));
      const out = await consoleCall(app, 'POST', '/api/v1/console/sign-out-everywhere', p.session);
      expect(out.status).toBe(200);
      expect(out.json).toEqual({ revokedSessions: 1, disconnectedApps: 2 });
      await expectEnded(one);
      await expectEnded(two);
      expect(await apiKeyStatus(p.key)).toBe(200);
      expect(await listed(await signIn(app, p.email))).toEqual([]);
    });

    it('a password change in the console disconnects every app; the API key keeps working', async () => {
      const p = await member();
      const tokens = await connect(p.session);
      const changed = await consoleCall(app, 'POST', '/api/v1/console/account/password', p.session, {
        body: { currentPassword: PASSWORD, newPassword: 'a brand new long password' },
      });
      expect(changed.status).toBe(200);
      await expectEnded(tokens);
      expect(await apiKeyStatus(p.key)).toBe(200);
      expect(await listed(p.session)).toEqual([]); // the session that changed it stays signed in
    });

    it('an operator password reset (users set-password) disconnects every app; the API key keeps working', async () => {
      const p = await member();
      const tokens = await connect(p.session);
      const out = await runCli('src/cli/users.ts', ['set-password', p.email, '--password-stdin'], cliEnv, {
        stdin: 'a password the operator set\n',
      });
      expect([out.code, out.stderr]).toEqual([0, '']);
      await expectEnded(tokens);
      expect(await apiKeyStatus(p.key)).toBe(200);
    }, 90_000);

    it('disabling the person (users disable) disconnects every app and says so; enabling does not reconnect them', async () => {
      const p = await member();
      const tokens = await connect(p.session);
      const users = (args: string[]) => runCli('src/cli/users.ts', args, cliEnv);
      const out = await users(['disable', p.email]);
      expect([out.code, out.stdout]).toEqual([
        0,
        `Disabled ${p.email}; 1 console session(s) ended, 1 connected OAuth app(s) disconnected; their keys are refused within seconds\n`,
      ]);
      expect((await users(['enable', p.email])).code).toBe(0);
      await expectEnded(tokens);
      expect(await apiKeyStatus(p.key)).toBe(200);
    }, 90_000);
  });

  describe('a refresh checks what an access token is checked against', () => {
    const refused = async (refreshToken: string) => {
      const res = await refresh(refreshToken);
      expect([res.status, res.json.error]).toEqual([400, 'invalid_grant']);
      return res.json.error_description as string;
    };

    it('a member removed in the console: refresh refused, the app no longer listed', async () => {
      const p = await member();
      const admin = await member('admin');
      const tokens = await connect(p.session);
      const second = await refresh(tokens.refresh);
      expect(second.status).toBe(200);
      const removed = await consoleCall(app, 'DELETE', `/api/v1/console/members/${p.userId}`, admin.session, {
        fund: fund.slug,
      });
      expect(removed.status).toBe(200);
      expect(removed.json.disconnectedApps).toBe(1);
      // the grant and its tokens end with the membership, before any refresh is tried
      const [ended] = await dbOf(app).query(
        `SELECT g.revoked_at IS NOT NULL AS grant_ended,
                bool_and(t.revoked_at IS NOT NULL) AS tokens_ended
           FROM oauth_grants g JOIN oauth_tokens t ON t.grant_id = g.id WHERE g.id = $1 GROUP BY g.id`,
        [tokens.grant],
      );
      expect(ended).toEqual({ grant_ended: true, tokens_ended: true });
      expect(await refused(second.json.refresh_token)).toMatch(/revoked/);
      expect(await listed(p.session)).toEqual([]);
    });

    it('a revoked grant key, a disabled person, no role left that allows the grant: refused while it lasts', async () => {
      const db = dbOf(app);
      const p = await member();
      let current = (await connect(p.session, ['fund:propose'])).refresh;
      const works = async () => {
        const res = await refresh(current);
        expect(res.status).toBe(200);
        current = res.json.refresh_token;
      };
      await db.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [p.userId]);
      expect(await refused(current)).toMatch(/disabled/);
      await db.query(`UPDATE users SET status = 'active' WHERE id = $1`, [p.userId]);
      await works();
      await db.query(`UPDATE fund_members SET role = 'viewer' WHERE user_id = $1 AND fund_id = $2`, [
        p.userId,
        fund.id,
      ]);
      expect(await refused(current)).toMatch(/no longer has a role/); // fund:propose was all it held
      await db.query(`UPDATE fund_members SET role = 'analyst' WHERE user_id = $1 AND fund_id = $2`, [
        p.userId,
        fund.id,
      ]);
      await works();
      await db.query(`DELETE FROM fund_members WHERE user_id = $1 AND fund_id = $2`, [p.userId, fund.id]);
      expect(await refused(current)).toMatch(/no longer has a role/);
      await db.query(`INSERT INTO fund_members (fund_id, user_id, role) VALUES ($1, $2, 'analyst')`, [
        fund.id,
        p.userId,
      ]);
      await works();
      const [grant] = await listed(p.session);
      await db.query(
        `UPDATE api_keys SET revoked_at = now() WHERE id = (SELECT key_id FROM oauth_grants WHERE id = $1)`,
        [grant],
      );
      expect(await refused(current)).toMatch(/disconnected/);
      expect(await listed(p.session)).toEqual([]);
    });

    it('a code used twice or a rotated refresh token used again: the app is no longer listed as connected', async () => {
      const p = await member();
      const replayed = await connect(p.session);
      expect((await replayed.exchange()).json.error).toBe('invalid_grant');
      await expectEnded(replayed);
      const reused = await connect(p.session);
      expect((await refresh(reused.refresh)).status).toBe(200);
      await refused(reused.refresh);
      await expectEnded(reused);
      expect(await listed(p.session)).toEqual([]);
    });
  });

  describe('a grant has an absolute lifetime', () => {
    it(`no token outlives the grant's creation + ${GRANT_MAX_SECONDS / 86400} days; after that, refresh is refused`, async () => {
      const db = dbOf(app);
      const p = await member();
      const tokens = await connect(p.session);
      const age = (interval: string) =>
        db.query(`UPDATE oauth_grants SET created_at = now() - $2::interval WHERE id = $1`, [tokens.grant, interval]);
      const expiry = async (refreshToken: string) => {
        const [row] = await db.query(
          `SELECT t.expires_at - g.created_at AS lived, t.expires_at - now() AS left FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = $1`,
          [hashSecret(refreshToken)],
        );
        return row as { lived: { days?: number; hours?: number }; left: { days?: number; hours?: number } };
      };
      await age('89 days');
      const late = await refresh(tokens.refresh);
      expect(late.status).toBe(200);
      expect(late.json.expires_in).toBe(ACCESS_TOKEN_SECONDS);
      expect((await expiry(late.json.refresh_token)).lived).toEqual({ days: 90 }); // not 89 + 30
      await age('90 days - 10 minutes');
      const last = await refresh(late.json.refresh_token);
      expect(last.status).toBe(200);
      expect(last.json.expires_in).toBeGreaterThan(590);
      expect(last.json.expires_in).toBeLessThanOrEqual(600); // the access token too
      await age('90 days');
      const over = await refresh(last.json.refresh_token);
      expect([over.status, over.json.error]).toEqual([400, 'invalid_grant']);
      expect(over.json.error_description).toMatch(/more than 90 days ago; connect it again/);
    });
  });

  describe('what an app may hold', () => {
    it("grantable scopes are exactly those the fund MCP server's tools need", async () => {
      const needed = new Set(
        app
          .get(McpCatalog)
          .toolsFor('fund', SCOPES)
          .flatMap((t) => t.scopes),
      );
      expect([...GRANTABLE_SCOPES].sort()).toEqual([...needed].sort());
      const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as ResponseJson;
      expect(as.scopes_supported).toEqual([...GRANTABLE_SCOPES]);
      const manager = await member('manager');
      const { id, inBrowser } = await startRequest(manager.session, randomBytes(32).toString('base64url'));
      const view = await consoleCall(app, 'GET', `/api/v1/console/oauth/requests/${id}`, inBrowser);
      const offered = (view.json.funds as { slug: string; grantableScopes: string[] }[]).find(
        (f) => f.slug === fund.slug,
      );
      expect(offered?.grantableScopes).toEqual(['fund:read', 'fund:propose']); // a manager holds nav:publish: not offered
    });

    it('a refresh reports the scopes in force (capped by the current role), not those stored at consent', async () => {
      const p = await member();
      const tokens = await connect(p.session, ['fund:read', 'fund:propose']);
      await dbOf(app).query(`UPDATE fund_members SET role = 'viewer' WHERE user_id = $1 AND fund_id = $2`, [
        p.userId,
        fund.id,
      ]);
      const res = await refresh(tokens.refresh);
      expect([res.status, res.json.scope]).toEqual([200, 'fund:read']);
    });
  });

  it("the fund's activity log shows a connected app's requests, named: to keys:manage all of them, to a person their own", async () => {
    const p = await member();
    const other = await member();
    const tokens = await connect(p.session);
    expect(await mcpStatus(tokens.access)).toBe(200);
    const admin = await member('admin');
    const appRows = async (session: Session) => {
      const res = await consoleCall(app, 'GET', '/api/v1/admin/activity?route=/api/mcp&limit=100', session, {
        fund: fund.slug,
      });
      expect(res.status).toBe(200);
      return (res.json.items as { app: string | null; userId: string }[]).filter((i) => i.app !== null);
    };
    const seen = await appRows(admin.session);
    expect(seen.filter((i) => i.userId === p.userId)).toEqual([
      expect.objectContaining({ app: 'Lifecycle Agent', userId: p.userId, status: 200 }),
    ]);
    expect((await appRows(p.session)).map((i) => i.userId)).toEqual([p.userId]);
    expect(await appRows(other.session)).toEqual([]);

    // the apps the log can be filtered by: the same rule; filtering by one gives its rows only
    const apps = async (session: Session) => {
      const res = await consoleCall(app, 'GET', '/api/v1/admin/activity/apps', session, { fund: fund.slug });
      expect(res.status).toBe(200);
      return res.json.items as { keyId: string; name: string; userId: string; disconnectedAt: string | null }[];
    };
    const [keyId] = (await dbOf(app).query('SELECT key_id FROM oauth_grants WHERE id = $1', [tokens.grant])).map(
      (r: { key_id: string }) => r.key_id,
    );
    const mine = { keyId, name: 'Lifecycle Agent', userId: p.userId, disconnectedAt: null };
    expect((await apps(admin.session)).filter((a) => a.userId === p.userId)).toEqual([expect.objectContaining(mine)]);
    expect(await apps(p.session)).toEqual([expect.objectContaining(mine)]);
    expect(await apps(other.session)).toEqual([]);
    const filtered = await consoleCall(app, 'GET', `/api/v1/admin/activity?keyId=${keyId}`, admin.session, {
      fund: fund.slug,
    });
    expect(filtered.status).toBe(200);
    expect((filtered.json.items as { keyId: string; app: string }[]).map((i) => [i.keyId, i.app])).toEqual([
      [keyId, 'Lifecycle Agent'],
    ]);
    const refused = await consoleCall(app, 'GET', `/api/v1/admin/activity?keyId=${keyId}`, other.session, {
      fund: fund.slug,
    });
    expect(refused.status).toBe(404);
  });

  it('a loopback IP redirect URI is matched at any port (RFC 8252 §7.3), nothing else about it', async () => {
    const p = await member();
    for (const port of ['54321', '1']) {
      const tokens = await connect(p.session, ['fund:read'], `http://127.0.0.1:${port}/callback`);
      expect(await mcpStatus(tokens.access)).toBe(200);
    }
    const authorize = (asked: string) =>
      fetch(
        `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: asked }).toString()}`,
        {
          redirect: 'manual',
        },
      );
    for (const other of [
      'http://127.0.0.1:54321/other',
      'http://127.0.0.1:54321/callback?x=1',
      'http://localhost:9/callback',
      'http://[::1]:9/callback',
      'https://127.0.0.1:9/callback',
      'http://127.0.0.1:70000/callback',
    ]) {
      const res = await authorize(other);
      expect([other, res.status, res.headers.get('location')]).toEqual([other, 400, null]);
    }
  });
});
