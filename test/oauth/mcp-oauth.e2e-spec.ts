import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { createHash, randomBytes } from 'node:crypto';
import { DEMO_SLUG, seedFundsOnce } from '../fund-data/fixtures';
import { hashSecret } from '../../src/common/crypto/secrets';
import { consoleCall, PASSWORD, signIn } from '../identity/console';
import { bootApp, dbOf, ensurePerson, type ResponseJson, type TestApp, uniqueName } from '../utils/app';
import { launchBrowser, screenshot, withScreenshotOnFailure } from '../utils/browser';
import { freePort, LocalClientServer, MemoryProvider } from './oauth-client';

/**
 * An MCP client that knows only <base>/api/mcp: discovery from the 401, registration (RFC 7591 and a
 * client ID metadata document), consent in the console in headless Chromium, token exchange, tool
 * calls, refresh, revocation in the console, and the refusals (PKCE, audience, role).
 */
describe('MCP over OAuth 2.1 (official SDK client, consent in the console)', () => {
  let app: TestApp;
  let base: string;
  let mcpUrl: URL;
  let browser: Browser;
  let page: Page;
  let local: LocalClientServer;
  let analyst: { email: string; userId: string };

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    mcpUrl = new URL(`${base}/api/mcp`);
    app = await bootApp({ publicBaseUrl: base, oauthClientMetadataAllowPrivate: true });
    await seedFundsOnce(app);
    await app.listen({ port, host: '127.0.0.1' });
    const email = `${uniqueName('agent-user')}@example.com`;
    analyst = { ...(await ensurePerson(app, email, 'developer', DEMO_SLUG, 'analyst', PASSWORD)) };
    local = new LocalClientServer();
    await local.start();
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await local?.close();
    await app?.close();
  });

  /** The browser part: open the authorization URL, sign in when asked, approve on the consent page. */
  async function consentInBrowser(url: URL, expectSignIn: boolean, clientName: string, selfRegistered: boolean) {
    const callback = local.nextCallback();
    await withScreenshotOnFailure(page, 'oauth-consent', async () => {
      await page.goto(url.toString());
      if (expectSignIn) {
        await page.waitForURL(/\/console\/sign-in\?next=%2Foauth%2Fconsent/);
        await page.getByLabel('Email').fill(analyst.email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
      }
      await page.waitForURL(/\/console\/oauth\/consent\?request=/);
      await page.getByTestId('consent-client').waitFor();
      expect(await page.getByTestId('consent-client').textContent()).toBe(clientName);
      expect(await page.getByTestId('consent-redirect-host').textContent()).toBe(new URL(local.base).host);
      // a name a client registered for itself is said to be unverified; a metadata document's host identifies it
      expect(await page.getByTestId('consent-unverified').count()).toBe(selfRegistered ? 1 : 0);
      if (selfRegistered) await screenshot(page, 'oauth-consent-self-registered');
      // an analyst may grant fund:read and fund:propose; review and key management are never offered
      const offered = await page.locator('fieldset label.checkbox').allTextContents();
      expect(offered.map((t) => t.split(':').slice(0, 2).join(':'))).toEqual(['fund:read', 'fund:propose']);
      await page.getByRole('button', { name: 'Approve' }).click();
    });
    return callback;
  }

  it('tells an unauthenticated client where to sign in (RFC 9728 from the 401, RFC 8414)', async () => {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp", scope="fund:read"`,
    );
    const prm: ResponseJson = await (await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base] });
    expect(prm.scopes_supported).not.toContain('proposals:review');
    // RFC 9728 §3.3: the root document would have to describe the origin, which is no protected resource here
    expect((await fetch(`${base}/.well-known/oauth-protected-resource`)).status).toBe(404);
    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: base,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it('dynamic registration → consent after sign-in → tools; refresh; disconnect in the console ends access', async () => {
    const provider = new MemoryProvider(local.redirectUri, {
      token_endpoint_auth_method: 'client_secret_basic',
      client_name: 'Test Agent (DCR)',
    });
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'agent', version: '1' }).connect(transport)).rejects.toThrow(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^fgc_/);
    expect((provider.info as { client_secret?: string }).client_secret).toMatch(/^fgcs_/);
    expect(provider.authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${base}/api/mcp`);

    const cb = await consentInBrowser(provider.authorizationUrl!, true, 'Test Agent (DCR)', true);
    expect(cb).toMatchObject({ state: 'state-123', iss: base, error: null });
    await transport.finishAuth(cb.code!);
    expect(provider.saved?.access_token).toMatch(/^fgat_/);
    expect(provider.saved?.scope).toBe('fund:read');

    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('get_fund_overview');
    expect(tools.filter((t) => t.startsWith('propose_'))).toEqual([]); // fund:read only was granted
    const overview = await client.callTool({ name: 'get_fund_overview', arguments: {} });
    expect(overview.isError).toBeFalsy();
    expect((overview.structuredContent as { shareClasses: unknown[] }).shareClasses.length).toBeGreaterThan(0);
    const feeTerms = await client.readResource({ uri: 'fundgate://fund/fee-terms' });
    expect(feeTerms.contents[0]).toMatchObject({ uri: 'fundgate://fund/fee-terms', mimeType: 'application/json' });
    expect(Object.keys(JSON.parse((feeTerms.contents[0] as { text: string }).text)).length).toBeGreaterThan(0);
    await client.close();

    // the activity log names the app (its grant's key) and the tool
    await new Promise((r) => setTimeout(r, 700));
    const logged = await dbOf(app).query(
      `SELECT k.name, l.tool FROM activity_log l JOIN api_keys k ON k.id = l.key_id JOIN oauth_grants g ON g.key_id = k.id WHERE g.client_id = $1 AND l.tool IS NOT NULL`,
      [provider.info!.client_id],
    );
    expect(logged).toContainEqual({ name: 'Test Agent (DCR) (OAuth app)', tool: 'get_fund_overview' });

    // refresh through the SDK: a new pair, the old access token still valid until it expires
    const first = provider.saved!;
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    expect(provider.saved!.refresh_token).not.toBe(first.refresh_token);
    expect(provider.saved!.access_token).not.toBe(first.access_token);

    // disconnect on the keys page; the next MCP request is refused
    await page.goto(`${base}/console/keys`);
    const row = page.getByTestId('app-row').filter({ hasText: 'Test Agent (DCR)' });
    await row.getByRole('button', { name: 'Disconnect Test Agent (DCR)' }).click();
    await page.getByRole('button', { name: 'Disconnect app' }).click();
    await page.getByText('Disconnected Test Agent (DCR)').waitFor();
    const after = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refreshAfter = await tokenRequest(
      { grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token! },
      basic(provider),
    );
    expect(refreshAfter.status).toBe(400);
  });

  it('client ID metadata document → consent (already signed in) → tools; a rotated refresh token used again revokes the family', async () => {
    const docUrl = `${local.base}/client.json`;
    local.document = {
      client_id: docUrl,
      client_name: 'Metadata Agent',
      redirect_uris: [local.redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    };
    const provider = new MemoryProvider(local.redirectUri, {}, { client_id: docUrl });
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'agent', version: '1' }).connect(transport)).rejects.toThrow(UnauthorizedError);
    const cb = await consentInBrowser(provider.authorizationUrl!, false, 'Metadata Agent', false);
    expect(cb.iss).toBe(base);
    await transport.finishAuth(cb.code!);
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await client.close();

    const old = provider.saved!;
    const rotated = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: old.refresh_token!,
      client_id: docUrl,
    });
    expect(rotated.status).toBe(200);
    const reuse = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: old.refresh_token!,
      client_id: docUrl,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe('invalid_grant');
    expect(await mcpStatus(rotated.json.access_token)).toBe(401); // the whole family ended
  });

  describe('refusals', () => {
    let clientId: string;
    let session: Awaited<ReturnType<typeof signIn>>;
    beforeAll(async () => {
      const reg = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Manual',
          redirect_uris: [local.redirectUri],
          token_endpoint_auth_method: 'none',
        }),
      });
      expect(reg.status).toBe(201);
      clientId = ((await reg.json()) as { client_id: string }).client_id;
      session = await signIn(app, analyst.email);
    });

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = (extra: Record<string, string>, cookie?: string) => {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: local.redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's',
        resource: `${base}/api/mcp`,
        ...extra,
      });
      return fetch(`${base}/oauth/authorize?${q.toString()}`, {
        redirect: 'manual',
        headers: cookie ? { cookie } : {},
      });
    };
    /** The request an authorization started, and the signed-in session in the browser that started it. */
    const requestOf = (res: Response) => {
      const browser = res.headers.get('set-cookie')!.split(';')[0];
      return {
        id: new URL(res.headers.get('location')!).searchParams.get('request')!,
        browser,
        session: { ...session, cookie: `${session.cookie}; ${browser}` },
      };
    };

    it('refuses plain PKCE, a missing challenge, another resource and an unregistered redirect URI', async () => {
      for (const [extra, error] of [
        [{ code_challenge_method: 'plain' }, 'invalid_request'],
        [{ code_challenge: '' }, 'invalid_request'],
        [{ resource: 'https://other.example/mcp' }, 'invalid_target'],
      ] as const) {
        // never an automatic redirect (any registrant's URI would be an open redirect on our domain):
        // a page of ours naming the problem, with a link back carrying error, state and iss
        const res = await authorize(extra);
        expect([res.status, res.headers.get('location')]).toEqual([400, null]);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        const page = await res.text();
        const href = /<a href="([^"]+)">Return to ([^<]+)<\/a>/.exec(page)!;
        const loc = new URL(href[1].replace(/&amp;/g, '&'));
        expect(`${loc.origin}${loc.pathname}`).toBe(local.redirectUri);
        expect(href[2]).toBe(loc.host);
        expect(loc.searchParams.get('error')).toBe(error);
        expect(loc.searchParams.get('state')).toBe('s');
        expect(loc.searchParams.get('iss')).toBe(base);
      }
      const bad = await authorize({ redirect_uri: `${local.redirectUri}/other` });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('location')).toBeNull();
    });

    it('a request is answered only in the browser that started it; two requests in one browser both are', async () => {
      const started = requestOf(await authorize({}));
      expect(started.browser).toMatch(/^fg_oauth_browser=[A-Za-z0-9_-]{43}$/);
      const elsewhere = requestOf(await authorize({})).session; // another browser, the same person
      for (const s of [session, elsewhere]) {
        const path = `/api/v1/console/oauth/requests/${started.id}`;
        const view = await consoleCall(app, 'GET', path, s);
        const approve = await consoleCall(app, 'POST', `${path}/approve`, s, {
          body: { fund: DEMO_SLUG, scopes: ['fund:read'] },
        });
        const deny = await consoleCall(app, 'POST', `${path}/deny`, s);
        for (const res of [view, approve, deny]) {
          expect([res.status, res.json.code]).toEqual([403, 'forbidden']);
          expect(res.json.detail).toContain('started in another browser');
        }
      }
      // the same browser starts a second request: it keeps its token, and both requests can be answered
      const second = requestOf(await authorize({}, started.browser));
      expect(second.browser).toBe(started.browser);
      for (const id of [started.id, second.id]) {
        const res = await consoleCall(app, 'POST', `/api/v1/console/oauth/requests/${id}/deny`, started.session);
        expect(res.status).toBe(200);
        expect(new URL(res.json.redirectTo).searchParams.get('error')).toBe('access_denied');
      }
    });

    it('the consent page opened from a link in another browser says why it cannot be answered', async () => {
      const res = await authorize({}); // started outside the page's browser, as an attacker's link would be
      await withScreenshotOnFailure(page, 'oauth-consent-elsewhere', async () => {
        await page.goto(res.headers.get('location')!);
        await page.waitForURL(/\/console\/(sign-in|oauth\/consent)/);
        if (page.url().includes('/sign-in')) {
          await page.getByLabel('Email').fill(analyst.email);
          await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
          await page.getByRole('button', { name: 'Sign in' }).click();
        }
        await page.getByText('started in another browser').waitFor();
        expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
        await screenshot(page, 'oauth-consent-elsewhere');
      });
    });

    it('refuses a grant beyond the role or of review / key management, then a wrong PKCE verifier; a code works once', async () => {
      const { id, session: inBrowser } = requestOf(await authorize({}));
      const approve = (scopes: string[]) =>
        consoleCall(app, 'POST', `/api/v1/console/oauth/requests/${id}/approve`, inBrowser, {
          body: { fund: DEMO_SLUG, scopes },
        });
      const beyond = await approve(['fund:read', 'nav:publish']); // an analyst lacks nav:publish
      expect(beyond.status).toBe(403);
      expect(beyond.json.errors[0].field).toBe('scopes');
      const review = await approve(['proposals:review']);
      expect(review.status).toBe(403);
      expect(review.json.detail).toMatch(/never hold proposals:review/);
      const ok = await approve(['fund:read', 'fund:propose']);
      expect(ok.status).toBe(200);
      const code = new URL(ok.json.redirectTo).searchParams.get('code')!;
      const exchange = (v: string) =>
        tokenRequest({
          grant_type: 'authorization_code',
          code,
          code_verifier: v,
          redirect_uri: local.redirectUri,
          client_id: clientId,
          resource: `${base}/api/mcp`,
        });
      const wrong = await exchange(randomBytes(32).toString('base64url'));
      expect(wrong.json.error).toBe('invalid_grant');
      const good = await exchange(verifier);
      expect(good.status).toBe(200);
      expect(good.json.scope).toBe('fund:read fund:propose');
      expect(await mcpStatus(good.json.access_token)).toBe(200);
      const again = await exchange(verifier);
      expect(again.json.error).toBe('invalid_grant');
      expect(await mcpStatus(good.json.access_token)).toBe(401); // code reuse revokes what it gave
    });

    it('reuse detected while a refresh is in flight also revokes the tokens that refresh issues', async () => {
      const { id, session: inBrowser } = requestOf(await authorize({}));
      const ok = await consoleCall(app, 'POST', `/api/v1/console/oauth/requests/${id}/approve`, inBrowser, {
        body: { fund: DEMO_SLUG, scopes: ['fund:read'] },
      });
      const code = new URL(ok.json.redirectTo).searchParams.get('code')!;
      const refresh = (token: string) =>
        tokenRequest({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId });
      const first = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: local.redirectUri,
        client_id: clientId,
      });
      const second = await refresh(first.json.refresh_token);
      expect(second.status).toBe(200);
      // the next refresh of this family stalls 1.5 s inside its transaction, after its access token is written
      const db = dbOf(app);
      const [{ family }] = await db.query('SELECT family_id AS family FROM oauth_tokens WHERE token_hash = $1', [
        hashSecret(second.json.refresh_token),
      ]);
      const fn = `stall_${String(family).replace(/-/g, '')}`;
      await db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.family_id = '${family}' AND NEW.kind = 'refresh' THEN PERFORM pg_sleep(1.5); END IF; RETURN NEW; END $$`);
      await db.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON oauth_tokens FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
      try {
        const inFlight = refresh(second.json.refresh_token);
        await new Promise((r) => setTimeout(r, 500));
        const reuse = await refresh(first.json.refresh_token); // the stolen, already rotated token
        expect(reuse.json.error).toBe('invalid_grant');
        const third = await inFlight;
        expect(third.status).toBe(200);
        expect(await mcpStatus(third.json.access_token)).toBe(401);
        expect((await refresh(third.json.refresh_token)).json.error).toBe('invalid_grant');
      } finally {
        await db.query(`DROP TRIGGER ${fn} ON oauth_tokens`);
        await db.query(`DROP FUNCTION ${fn}()`);
      }
    });

    it('an access token is for the MCP server only: REST refuses it, and a token of another audience is refused', async () => {
      const { id, session: inBrowser } = requestOf(await authorize({}));
      const ok = await consoleCall(app, 'POST', `/api/v1/console/oauth/requests/${id}/approve`, inBrowser, {
        body: { fund: DEMO_SLUG, scopes: ['fund:read'] },
      });
      const code = new URL(ok.json.redirectTo).searchParams.get('code')!;
      const tokens = (
        await tokenRequest({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: local.redirectUri,
          client_id: clientId,
        })
      ).json;
      const rest = await fetch(`${base}/api/v1/fund/overview`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(rest.status).toBe(401);
      expect(await mcpStatus(tokens.access_token)).toBe(200);
      await dbOf(app).query(
        `UPDATE oauth_grants SET resource = 'https://other.example/mcp' WHERE id = (SELECT grant_id FROM oauth_authorizations WHERE id = $1)`,
        [id],
      );
      expect(await mcpStatus(tokens.access_token)).toBe(401);
    });
  });

  async function tokenRequest(
    params: Record<string, string>,
    authorization?: string,
  ): Promise<{ status: number; json: ResponseJson }> {
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
      body: new URLSearchParams(params),
    });
    return { status: res.status, json: await res.json() };
  }

  async function mcpStatus(token: string): Promise<number> {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    return res.status;
  }

  function basic(p: MemoryProvider): string {
    const info = p.info as { client_id: string; client_secret: string };
    return `Basic ${Buffer.from(`${encodeURIComponent(info.client_id)}:${encodeURIComponent(info.client_secret)}`).toString('base64')}`;
  }
});
