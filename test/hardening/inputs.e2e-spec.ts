import { bootApp, call, createFund, mintKey, type TestApp, type TestKey } from '../utils/app';
import { deepArrays, expectFieldError, expectProblem, rawCall } from './helpers';

/** The issue's reproductions: deep nesting, NUL and invalid Unicode, non-object bodies. */
describe('hostile input is a 400 naming the field, never a 500 (e2e)', () => {
  let app: TestApp;
  let admin: TestKey;
  let manager: TestKey;
  const NUL = '\u0000';
  const LONE = '\ud800';

  beforeAll(async () => {
    app = await bootApp();
    const fund = await createFund(app);
    admin = await mintKey(app, {
      scopes: ['keys:manage', 'webhooks:manage', 'fund:read', 'fund:propose'],
      fund: fund.slug,
      plan: 'platform',
    });
    manager = admin;
  });
  afterAll(() => app.close());

  describe('nesting deeper than 64 levels → 400 invalid_request naming the body', () => {
    const routes: [string, string][] = [
      ['/api/v1/calc/fee-calculator', 'POST'],
      ['/api/v1/admin/keys', 'POST'],
      ['/api/v1/webhooks', 'POST'],
      ['/api/v1/fund/proposals/expense', 'POST'],
      ['/api/v1/fund/proposals/journal-entry', 'POST'],
    ];
    it.each(routes)('%s', async (url) => {
      const res = await call(app, 'POST', url, { key: admin.key, body: `{"a":${deepArrays(3000)}}` });
      expectProblem(res, 400, 'invalid_request');
      expect(res.json.errors).toEqual([{ field: 'body', message: 'must not nest deeper than 64 levels' }]);
    });

    it('64 levels still parse (and are then judged by the DTO)', async () => {
      const res = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
        key: admin.key,
        body: `{"a":${deepArrays(63)}}`,
      });
      expect(res.status).toBe(400);
      expect(res.json.code).not.toBe('invalid_request');
    });

    it('MCP with 5,000 levels inside arguments → JSON-RPC parse error, not a 500', async () => {
      const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fee_calculator","arguments":{"x":${deepArrays(5000)}}}}`;
      const res = await rawCall(app, '/api/mcp/public', {
        body,
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe(-32700);
      expect(res.json.error.message).toMatch(/deeper than 64/);
    });
  });

  describe('NUL and lone surrogates → 400 with a field error', () => {
    const line = (accountCode: string, description?: string) => ({
      accountCode,
      debit: '1.00',
      ...(description ? { description } : {}),
    });
    const cases: [string, 'GET' | 'POST', string, unknown, string][] = [
      ['performance shareClass', 'GET', '/api/v1/fund/performance?shareClass=%00', undefined, 'shareClass'],
      [
        'expense vendor',
        'POST',
        '/api/v1/fund/proposals/expense',
        { category: 'legal', vendor: `A${NUL}`, amount: '1.00', accrualDate: '2026-01-31', description: 'x' },
        'vendor',
      ],
      [
        'expense description',
        'POST',
        '/api/v1/fund/proposals/expense',
        { category: 'legal', vendor: 'A', amount: '1.00', accrualDate: '2026-01-31', description: `x${NUL}` },
        'description',
      ],
      [
        'expense description (surrogate)',
        'POST',
        '/api/v1/fund/proposals/expense',
        { category: 'legal', vendor: 'A', amount: '1.00', accrualDate: '2026-01-31', description: `x${LONE}` },
        'description',
      ],
      [
        'journal-entry description',
        'POST',
        '/api/v1/fund/proposals/journal-entry',
        { entryDate: '2026-01-31', description: NUL, lines: [line('5600'), line('1000')] },
        'description',
      ],
      [
        'journal-entry line accountCode',
        'POST',
        '/api/v1/fund/proposals/journal-entry',
        { entryDate: '2026-01-31', description: 'd', lines: [line(`56${NUL}`), line('1000')] },
        'lines.0.accountCode',
      ],
      [
        'journal-entry line description',
        'POST',
        '/api/v1/fund/proposals/journal-entry',
        { entryDate: '2026-01-31', description: 'd', lines: [line('5600'), line('1000', `z${NUL}`)] },
        'lines.1.description',
      ],
      [
        'capital-activity shareClass',
        'POST',
        '/api/v1/fund/proposals/capital-activity',
        {
          investorId: '00000000-0000-4000-8000-000000000000',
          type: 'subscription',
          shareClass: NUL,
          amount: '1.00',
          dealingDate: '2026-06-30',
        },
        'shareClass',
      ],
      ['admin key name', 'POST', '/api/v1/admin/keys', { name: `k${NUL}`, scopes: ['fund:read'] }, 'name'],
      [
        'admin key account',
        'POST',
        '/api/v1/admin/keys',
        { name: 'k', scopes: ['fund:read'], account: `a${NUL}` },
        'account',
      ],
      [
        'admin key name (surrogate)',
        'POST',
        '/api/v1/admin/keys',
        { name: `k${'\udc00'}`, scopes: ['fund:read'] },
        'name',
      ],
      [
        'webhook description',
        'POST',
        '/api/v1/webhooks',
        { url: 'https://example.com/h', eventTypes: ['nav.published'], description: `d${NUL}` },
        'description',
      ],
      [
        'webhook url',
        'POST',
        '/api/v1/webhooks',
        { url: `https://example.com/${NUL}`, eventTypes: ['nav.published'] },
        'url',
      ],
      ['a member name', 'POST', '/api/v1/calc/fee-calculator', { [`k${NUL}`]: 1 }, 'k?'],
      ['activity keyId', 'GET', '/api/v1/admin/activity?keyId=%00', undefined, 'keyId'],
      ['trades symbol', 'GET', '/api/v1/fund/trades?symbol=%00', undefined, 'symbol'],
      ['usage from', 'GET', '/api/v1/usage?from=2026-01-01%00', undefined, 'from'],
      ['proposals status', 'GET', '/api/v1/fund/proposals?status=%00', undefined, 'status'],
      ['webhook id path parameter', 'GET', '/api/v1/webhooks/%00', undefined, 'id'],
      ['stress-test preset', 'GET', '/api/v1/fund/risk/stress-test?preset=%00', undefined, 'preset'],
      ['gl-detail accountCode', 'GET', '/api/v1/fund/ledger/gl-detail?accountCode=%00', undefined, 'accountCode'],
      [
        'exposure positionsCsv',
        'POST',
        '/api/v1/calc/exposure-analysis',
        { positionsCsv: `asset,qty\nBTC${NUL},1` },
        'positionsCsv',
      ],
    ];
    it.each(cases)('%s', async (_name, method, url, body, field) => {
      const res = await call(app, method, url, { key: manager.key, body });
      expectFieldError(res, field);
      const error = res.json.errors.find((e: { field: string }) => e.field === field);
      expect(error.message).toBe('must not contain NUL characters or invalid Unicode');
    });

    it('MCP arguments with NUL come back as a tool error naming the field', async () => {
      const res = await rawCall(app, '/api/mcp', {
        key: manager.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'get_fund_performance', arguments: { shareClass: `A${NUL}` } },
        },
      });
      expect(res.status).toBe(200);
      expect(res.json.result.isError).toBe(true);
      expect(res.json.result.content[0].text).toMatch(/shareClass: must not contain NUL/);
      const propose = await rawCall(app, '/api/mcp', {
        key: manager.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 8,
          method: 'tools/call',
          params: {
            name: 'propose_expense',
            arguments: { category: 'legal', vendor: NUL, amount: '1.00', accrualDate: '2026-01-31', description: 'x' },
          },
        },
      });
      expect(propose.json.result.isError).toBe(true);
      expect(propose.json.result.content[0].text).toMatch(/vendor: must not contain NUL/);
    });
  });

  describe('null where a member may only be absent → 400 naming it (it reached the service: a 500)', () => {
    const cases: [string, 'POST', string, Record<string, unknown>, string][] = [
      ['an LP report id', 'POST', '/api/v1/fund/proposals/lp-report', { lpReportId: null }, 'lpReportId'],
      [
        'a journal line debit',
        'POST',
        '/api/v1/fund/proposals/journal-entry',
        {
          entryDate: '2026-01-31',
          description: 'x',
          lines: [
            { accountCode: '6100', debit: null, credit: '1.00' },
            { accountCode: '1000', debit: '1.00' },
          ],
        },
        'lines.0.debit',
      ],
      [
        'a key expiry',
        'POST',
        '/api/v1/admin/keys',
        { name: 'k', scopes: ['fund:read'], expiresAt: null },
        'expiresAt',
      ],
      [
        'a webhook description',
        'POST',
        '/api/v1/webhooks',
        { url: 'https://example.com/h', eventTypes: ['nav.published'], description: null },
        'description',
      ],
    ];
    it.each(cases)('%s', async (_name, method, url, body, field) => {
      const res = await call(app, method, url, { key: manager.key, body });
      expectFieldError(res, field);
    });

    it('over MCP: a tool error naming the field', async () => {
      const res = await rawCall(app, '/api/mcp', {
        key: manager.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'propose_lp_report', arguments: { lpReportId: null } },
        },
      });
      expect(res.json.result.isError).toBe(true);
      expect(res.json.result.content[0].text).toMatch(/lpReportId/);
    });
  });

  it('over MCP an idempotency refusal names the tool argument, not the HTTP header', async () => {
    const propose = (id: number, idempotencyKey: string, vendor: string) =>
      rawCall(app, '/api/mcp', {
        key: manager.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'propose_expense',
            arguments: {
              category: 'legal',
              vendor,
              amount: '1.00',
              accrualDate: '2026-01-31',
              description: 'x',
              idempotencyKey,
            },
          },
        },
      });
    const blank = await propose(20, ' ', 'A');
    expect(blank.json.result.content[0].text).toMatch(/^invalid_parameter: idempotencyKey: /);
    const key = `k-${Date.now()}`;
    await propose(21, key, 'A');
    const reused = await propose(22, key, 'B');
    expect(reused.json.result.content[0].text).toMatch(/idempotencyKey: already used with a different request/);
  });

  it('a blank narrative, vendor or description is a 400 naming it (a whitespace narrative distributed an empty report)', async () => {
    const report = await call(app, 'POST', '/api/v1/fund/proposals/lp-report', {
      key: manager.key,
      body: { periodStart: '2026-01-01', periodEnd: '2026-03-31', narrative: '  \n ' },
    });
    expectFieldError(report, 'narrative');
    const expense = await call(app, 'POST', '/api/v1/fund/proposals/expense', {
      key: manager.key,
      body: { category: 'legal', vendor: ' ', amount: '1.00', accrualDate: '2026-01-31', description: '\t' },
    });
    expectFieldError(expense, 'vendor');
    expectFieldError(expense, 'description');
  });

  describe('bodies that are not objects', () => {
    it.each([['null'], ['[]'], ['[1,2]'], ['42'], ['"text"'], ['true']])(
      '%s → 400 invalid_request naming the body',
      async (body) => {
        const res = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
          body,
          headers: { 'content-type': 'application/json' },
        });
        expectProblem(res, 400, 'invalid_request');
        expect(res.json.errors).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
      },
    );

    it('an empty JSON body is {} (a calculator answers with its defaults)', async () => {
      const res = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
        body: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toHaveProperty('assumptions');
    });
  });
  describe('edges an input audit found (each was a 500 or a silently wrong answer)', () => {
    const form = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      call(app, 'POST', '/oauth/token', {
        body: new URLSearchParams(body).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    const basic = (id: string) => `Basic ${Buffer.from(`${id}:secret`).toString('base64')}`;

    it('OAuth token: Basic credentials that are not valid encoding, and a client_id with NUL, are client errors', async () => {
      const stray = await form({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic('abc%') });
      expect([stray.status, stray.json.error]).toEqual([401, 'invalid_client']);
      const nul = await form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: `a${NUL}b` });
      expect([nul.status, nul.json.error]).toEqual([400, 'invalid_request']);
      expect(nul.json.error_description).toMatch(/client_id must not contain NUL/);
    });

    it('OAuth: a repeated parameter is refused (RFC 6749 §3.1), not resolved to the registered redirect URI', async () => {
      const q = 'response_type=code&client_id=c&redirect_uri=https://a.example/cb&redirect_uri=https://b.example/cb';
      const res = await app
        .getHttpAdapter()
        .getInstance()
        .inject({ method: 'GET', url: `/oauth/authorize?${q}` });
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toMatch(/redirect_uri must not be repeated/);
      const token = await form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'c' });
      expect(token.status).toBe(401); // one client_id: only unknown
      const twice = await call(app, 'POST', '/oauth/token', {
        body: 'grant_type=refresh_token&client_id=a&client_id=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect([twice.status, twice.json.error_description]).toEqual([400, 'client_id must not be repeated']);
    });

    it('OAuth registration: a redirect URI that is not a string, holds NUL, or has a 250-character host', async () => {
      const register = (body: object) => call(app, 'POST', '/oauth/register', { body });
      const notString = await register({ redirect_uris: [{ toString: 1 }], token_endpoint_auth_method: 'none' });
      expect([notString.status, notString.json.error]).toEqual([400, 'invalid_redirect_uri']);
      const nul = await register({ redirect_uris: [`https://a.example/cb${NUL}`], token_endpoint_auth_method: 'none' });
      expect([nul.status, nul.json.error]).toEqual([400, 'invalid_redirect_uri']);
      const host = `${'h'.repeat(60)}.${'o'.repeat(60)}.${'s'.repeat(60)}.${'t'.repeat(60)}.example`;
      const long = await register({ redirect_uris: [`https://${host}/cb`], token_endpoint_auth_method: 'none' });
      expect(long.status).toBe(201);
      expect(long.json.client_name).toHaveLength(200);
    });

    it('sign-up: an email over 200 characters and a display name of 200 emoji with variation selectors', async () => {
      const signUp = (body: object) =>
        call(app, 'POST', '/api/v1/console/sign-up', {
          body,
          headers: { host: 'console.test', origin: 'http://console.test' },
        });
      const longEmail = await signUp({
        email: `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}@example.com`,
        displayName: 'Long',
        password: 'a long enough password',
      });
      expectFieldError(longEmail, 'email');
      const emoji = await signUp({
        email: `emoji-${Date.now()}@example.com`,
        displayName: '\u2764\ufe0f'.repeat(200),
        password: 'a long enough password',
      });
      expectFieldError(emoji, 'displayName');
      const tooLong = await signUp({
        email: `long-${Date.now()}@example.com`,
        displayName: 'L',
        password: 'p'.repeat(1025),
      });
      expect(tooLong.json.errors).toEqual([{ field: 'password', message: 'must be at most 1024 characters' }]);
      expect(emoji.json.errors).toContainEqual({ field: 'displayName', message: 'must be at most 200 characters' });
    });

    it('minting: a key name of 200 emoji with variation selectors, and expiry dates new Date() cannot read', async () => {
      const mint = (body: object) => call(app, 'POST', '/api/v1/admin/keys', { key: admin.key, body });
      expectFieldError(await mint({ name: '\u2764\ufe0f'.repeat(200), scopes: ['fund:read'] }), 'name');
      for (const expiresAt of [
        '20270101',
        '2027-W01-1',
        '2027-100',
        '2027-01-01T24:00Z',
        20270101,
        '2027-02-30T00:00:00Z',
      ])
        expectFieldError(await mint({ name: 'x', scopes: ['fund:read'], expiresAt }), 'expiresAt');
      const fine = await mint({ name: 'x', scopes: ['fund:read'], expiresAt: '2030-01-01T00:00:00+02:00' });
      expect(fine.status).toBe(201);
    });

    it('a date past what the books can hold is a 400 naming it (9999-12-31 + 1 day left YYYY-MM-DD)', async () => {
      const res = await call(app, 'GET', '/api/v1/fund/trades?to=9999-12-31', { key: admin.key });
      expectFieldError(res, 'to');
      expect(res.json.errors).toContainEqual({ field: 'to', message: 'must be a date from 1900-01-01 to 2999-12-31' });
    });

    it('a webhook URL over 2 048 characters once percent-encoded (what is stored) is a 400 naming url', async () => {
      const url = `https://1.1.1.1/${'\u00e9'.repeat(1000)}`;
      expect(url.length).toBeLessThan(2048);
      const res = await call(app, 'POST', '/api/v1/webhooks', {
        key: admin.key,
        body: { url, eventTypes: ['nav.published'] },
      });
      expectFieldError(res, 'url');
    });

    it('MCP: a resource uri or prompt name that is an object is a JSON-RPC error, not a 500', async () => {
      const rpc = (method: string, params: object) =>
        rawCall(app, '/api/mcp', {
          key: admin.key,
          body: { jsonrpc: '2.0', id: 1, method, params },
          headers: { accept: 'application/json, text/event-stream' },
        });
      for (const [method, params] of [
        ['resources/read', { uri: { toString: 1 } }],
        ['prompts/get', { name: { toString: 1 } }],
      ] as const) {
        const res = await rpc(method, params);
        expect([method, res.status]).toEqual([method, 200]);
        expect(res.json.error.message).toMatch(/\{"toString":1\}/);
      }
    });

    it('integers in a query are decimal (0x10, 1e2, " 7 " are refused, not read as 16, 100, 7); an empty cursor is refused', async () => {
      for (const limit of ['0x10', '1e2', '0b11', '%207%20', '']) {
        const res = await call(app, 'GET', `/api/v1/fund/trades?limit=${limit}`, { key: admin.key });
        expect([limit, res.status]).toEqual([limit, 400]);
        expect([...new Set(res.json.errors.map((e: { field: string }) => e.field))]).toEqual(['limit']);
      }
      expect((await call(app, 'GET', '/api/v1/fund/trades?limit=16', { key: admin.key })).status).toBe(200);
      for (const url of [
        '/api/v1/fund/proposals?cursor=',
        '/api/v1/admin/activity?cursor=',
        '/api/v1/fund/trades?cursor=',
      ]) {
        const res = await call(app, 'GET', url, { key: admin.key });
        expect([url, res.status]).toEqual([url, 400]);
        expect(res.json.errors).toContainEqual({
          field: 'cursor',
          message: 'must not be empty (leave it out for the first page)',
        });
      }
    });

    it('a route without query parameters refuses unknown ones, naming them (GET /me, the webhooks list)', async () => {
      for (const url of ['/api/v1/me?verbose=1', '/api/v1/webhooks?page=2']) {
        const res = await call(app, 'GET', url, { key: admin.key });
        expect([url, res.status]).toEqual([url, 400]);
        expect(res.json.errors).toEqual([{ field: url.split('?')[1].split('=')[0], message: 'is not a known field' }]);
      }
    });

    it('MCP: an unsupported MCP-Protocol-Version is a JSON-RPC invalid request (-32600), a body that is not JSON a parse error', async () => {
      const headers = { accept: 'application/json, text/event-stream' };
      const version = await rawCall(app, '/api/mcp/public', {
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { ...headers, 'mcp-protocol-version': '1999-01-01' },
      });
      expect([version.status, version.json.error.code]).toEqual([400, -32600]);
      expect(version.json.error.message).toMatch(/unsupported MCP-Protocol-Version 1999-01-01/);
      const garbage = await rawCall(app, '/api/mcp/public', { body: '{"jsonrpc":', headers });
      expect([garbage.status, garbage.json.error.code]).toEqual([400, -32700]);
    });

    it('a POST that takes no body refuses one with members, naming them; no body or {} is fine', async () => {
      const hook = await call(app, 'POST', '/api/v1/webhooks', {
        key: admin.key,
        body: { url: 'https://1.1.1.1/hook', eventTypes: ['nav.published'] },
      });
      expect(hook.status).toBe(201);
      const rotate = (body?: unknown) =>
        call(app, 'POST', `/api/v1/webhooks/${hook.json.id}/rotate-secret`, { key: admin.key, body });
      const extra = await rotate({ keepOld: true });
      expect([extra.status, extra.json.errors]).toEqual([400, [{ field: 'keepOld', message: 'is not a known field' }]]);
      expect((await rotate([1])).json.errors).toEqual([{ field: 'body', message: 'must be empty' }]);
      expect((await rotate({})).status).toBe(200);
      expect((await rotate()).status).toBe(200);
    });

    it('a body that is not JSON is refused without quoting it back (a password could be in it)', async () => {
      const res = await call(app, 'POST', '/api/v1/console/sign-in', {
        body: '{"email":"a@b.example","password":hunter2secret}',
        headers: { host: 'console.test', origin: 'http://console.test' },
      });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body).not.toMatch(/hunter2/);
      expect(res.json.errors).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
    });
  });
});
