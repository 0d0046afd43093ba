import { setTimeout as sleep } from 'node:timers/promises';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { consoleCall, person } from '../identity/console';
import { McpCatalog } from '../../src/mcp/mcp.catalog';
import { seedBooks, stageEntry } from './books-fixture';

/**
 * A maker withdraws their own pending proposal (POST /api/v1/fund/proposals/{id}/withdraw with a key,
 * POST /api/v1/console/proposals/{id}/withdraw in the console): nobody else may, only while pending,
 * a retry answers the same record, and an approval racing it loses or wins whole.
 */
describe('proposals: the maker withdraws a pending proposal (e2e)', () => {
  let app: TestApp;
  let fund: { id: string; slug: string };
  let otherFund: { id: string; slug: string };
  let maker: TestKey;
  let makersOtherKey: TestKey;
  let colleague: TestKey;
  let reviewer: TestKey;
  let foreign: TestKey;
  let makerName: string;

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    fund = await createFund(app);
    await seedBooks(app, fund.id);
    otherFund = await createFund(app);
    await seedBooks(app, otherFund.id);
    makerName = uniqueName('maker');
    maker = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, account: makerName, plan: 'platform' });
    makersOtherKey = await mintKey(app, {
      scopes: ['fund:read', 'fund:propose'],
      fund: fund.slug,
      account: makerName,
      plan: 'platform',
    });
    colleague = await mintKey(app, { scopes: ['fund:read', 'fund:propose'], fund: fund.slug, plan: 'platform' });
    reviewer = await mintKey(app, {
      scopes: ['fund:read', 'fund:propose', 'proposals:review'],
      fund: fund.slug,
      plan: 'platform',
    });
    foreign = await mintKey(app, {
      scopes: ['fund:propose'],
      fund: otherFund.slug,
      account: makerName,
      plan: 'platform',
    });
  });
  afterAll(() => app.close());

  const stage = (key = maker.key) => stageEntry(app, key, uniqueName('stage'));
  const withdraw = (id: string, key = maker.key, body: unknown = undefined) =>
    call(app, 'POST', `/api/v1/fund/proposals/${id}/withdraw`, { key, body });
  const approve = (id: string) =>
    call(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, { key: reviewer.key, body: { note: 'ok' } });
  const reject = (id: string) =>
    call(app, 'POST', `/api/v1/admin/proposals/${id}/reject`, { key: reviewer.key, body: { reason: 'no' } });
  const get = (id: string, key = reviewer.key) => call(app, 'GET', `/api/v1/fund/proposals/${id}`, { key });
  const listIds = async (path: string, key = reviewer.key) =>
    ((await call(app, 'GET', path, { key })).json.items as { id: string }[]).map((i) => i.id);
  const eventsFor = (id: string) =>
    dbOf(app).query(`SELECT type FROM webhook_events WHERE body::jsonb -> 'data' ->> 'proposalId' = $1`, [id]);
  const entriesFor = (id: string) =>
    dbOf(app).query(`SELECT id FROM journal_entries WHERE source_ref = $1`, [`proposal:${id}`]);

  it('the maker withdraws with the key that staged it: 200, the record says who and when, nothing executes, no event', async () => {
    const id = await stage();
    const res = await withdraw(id, maker.key, { note: 'staged on the wrong date' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id,
      status: 'withdrawn',
      decidedAt: null,
      decidedBy: null,
      decisionNote: null,
      executionRef: null,
      withdrawnBy: { accountId: maker.accountId, keyId: maker.id, userId: expect.any(String), displayName: makerName },
      withdrawalNote: 'staged on the wrong date',
    });
    expect(res.json.withdrawnBy.userId).toBe(res.json.proposedBy.userId);
    expect(Date.parse(res.json.withdrawnAt)).toBeGreaterThanOrEqual(Date.parse(res.json.createdAt));
    expect((await get(id)).json).toEqual(res.json);
    expect(await entriesFor(id)).toEqual([]);
    expect(await eventsFor(id)).toEqual([]);
  });

  it('lists: status=withdrawn finds it, the pending queue (fund and admin) no longer holds it', async () => {
    const id = await stage();
    expect(await listIds('/api/v1/admin/proposals?status=pending')).toContain(id);
    expect((await withdraw(id)).status).toBe(200);
    expect(await listIds('/api/v1/admin/proposals?status=pending')).not.toContain(id);
    expect(await listIds('/api/v1/fund/proposals?status=pending')).not.toContain(id);
    expect(await listIds('/api/v1/fund/proposals?status=withdrawn')).toContain(id);
    expect(await listIds('/api/v1/admin/proposals?status=withdrawn')).toContain(id);
    expect(await listIds('/api/v1/fund/proposals?status=withdrawn', maker.key)).toContain(id); // a propose-only key: its own
    expect(await listIds('/api/v1/fund/proposals?status=rejected')).not.toContain(id);
  });

  it('through another key of the same person, with no body at all', async () => {
    const id = await stage();
    const res = await withdraw(id, makersOtherKey.key);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 'withdrawn',
      withdrawnBy: { accountId: maker.accountId, keyId: makersOtherKey.id },
      withdrawalNote: null,
    });
  });

  it("someone else's proposal is 404 (reviewer and colleague alike, another fund's key too) and stays pending", async () => {
    const id = await stage();
    for (const key of [colleague.key, reviewer.key, foreign.key]) {
      const res = await withdraw(id, key);
      expect([res.status, res.json.code]).toEqual([404, 'not_found']);
    }
    const mine = await stage(colleague.key);
    expect((await withdraw(mine, maker.key)).status).toBe(404); // the maker does not reach the colleague's either
    expect((await get(id)).json.status).toBe('pending');
    expect((await get(mine)).json.status).toBe('pending');
    const missing = await withdraw('00000000-0000-4000-8000-000000000000');
    expect([missing.status, missing.json.code]).toEqual([404, 'not_found']);
  });

  it('only a pending proposal: approved or rejected is 409 naming its status; a withdrawn one cannot be decided', async () => {
    const approved = await stage();
    expect((await approve(approved)).status).toBe(200);
    const rejected = await stage();
    expect((await reject(rejected)).status).toBe(200);
    for (const [id, status] of [
      [approved, 'approved'],
      [rejected, 'rejected'],
    ]) {
      const res = await withdraw(id);
      expect([res.status, res.json.code]).toEqual([409, 'invalid_state']);
      expect(res.json.detail).toBe(`proposal ${id} is ${status}: only a pending proposal can be withdrawn`);
      expect((await get(id)).json).toMatchObject({ status, withdrawnAt: null, withdrawnBy: null });
    }
    const withdrawn = await stage();
    expect((await withdraw(withdrawn)).status).toBe(200);
    for (const decide of [approve, reject]) {
      const res = await decide(withdrawn);
      expect([res.status, res.json.code, res.json.detail]).toEqual([
        409,
        'invalid_state',
        `proposal ${withdrawn} was already withdrawn`,
      ]);
    }
    expect(await entriesFor(withdrawn)).toEqual([]);
  });

  it('a second withdrawal by its maker (a retry) answers 200 with the same record; the first note stays', async () => {
    const id = await stage();
    const first = await withdraw(id, maker.key, { note: 'first' });
    expect(first.status).toBe(200);
    const again = await withdraw(id, makersOtherKey.key, { note: 'second' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect((await withdraw(id, colleague.key)).status).toBe(404); // a retry is the maker's only
  });

  it('needs fund:propose; the note is bounded and not blank, as the approval note', async () => {
    const id = await stage();
    const reader = await mintKey(app, { scopes: ['fund:read'], fund: fund.slug, account: makerName, plan: 'platform' });
    const refused = await withdraw(id, reader.key);
    expect([refused.status, refused.json.code]).toEqual([403, 'insufficient_scope']);
    for (const note of ['', '   ', 'x'.repeat(2001)]) {
      const res = await withdraw(id, maker.key, { note });
      expect([res.status, res.json.errors?.[0]?.field]).toEqual([400, 'note']);
    }
    const unknown = await withdraw(id, maker.key, { reason: 'x' });
    expect([unknown.status, unknown.json.errors?.[0]?.field]).toEqual([400, 'reason']);
    expect((await get(id)).json.status).toBe('pending');
    expect((await withdraw(id, maker.key, { note: 'x'.repeat(2000) })).status).toBe(200);
  });

  it("a service identity's proposal: any key of that identity withdraws it, not the admin who minted the key", async () => {
    const admin = await person(app, fund.slug, 'admin', 'platform');
    const name = uniqueName('svc').slice(0, 30);
    const created = await consoleCall(app, 'POST', '/api/v1/console/service-accounts', admin.session, {
      fund: fund.slug,
      body: { name },
    });
    expect(created.status).toBe(201);
    const mint = async (keyName: string) => {
      const res = await consoleCall(app, 'POST', '/api/v1/admin/keys', admin.session, {
        fund: fund.slug,
        body: { name: keyName, scopes: ['fund:propose'], account: name, plan: 'platform' },
      });
      expect(res.status).toBe(201);
      return res.json as { id: string; token: string };
    };
    const [bot, sibling] = [await mint('bot'), await mint('sibling')];
    const adminKey = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, account: admin.email });
    const id = await stage(bot.token);
    expect((await withdraw(id, adminKey.key)).status).toBe(404);
    const viaConsole = await consoleCall(app, 'POST', `/api/v1/console/proposals/${id}/withdraw`, admin.session, {
      fund: fund.slug,
      body: {},
    });
    expect(viaConsole.status).toBe(404);
    const res = await withdraw(id, sibling.token);
    expect(res.status).toBe(200);
    expect(res.json.withdrawnBy).toEqual({
      accountId: res.json.proposedBy.accountId,
      keyId: sibling.id,
      userId: null,
      displayName: null,
    });
  });

  it('in the console: the maker withdraws through their session (CSRF-checked); a key is refused there, another person gets 404', async () => {
    const analyst = await person(app, fund.slug, 'analyst', 'platform');
    const key = await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, account: analyst.email });
    const id = await stage(key.key);
    const path = `/api/v1/console/proposals/${id}/withdraw`;
    const manager = await person(app, fund.slug, 'manager', 'platform');
    const other = await consoleCall(app, 'POST', path, manager.session, { fund: fund.slug, body: {} });
    expect([other.status, other.json.code]).toEqual([404, 'not_found']);
    const noCsrf = await consoleCall(app, 'POST', path, analyst.session, {
      fund: fund.slug,
      body: {},
      headers: { 'x-csrf-token': '' },
    });
    expect([noCsrf.status, noCsrf.json.code]).toEqual([403, 'csrf_failed']);
    const byKey = await call(app, 'POST', path, { key: key.key, body: {} });
    expect(byKey.status).toBe(401);
    const res = await consoleCall(app, 'POST', path, analyst.session, { fund: fund.slug, body: { note: 'typo' } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 'withdrawn',
      withdrawnBy: { accountId: key.accountId, keyId: null, userId: analyst.userId },
      withdrawalNote: 'typo',
    });
    const again = await consoleCall(app, 'POST', path, analyst.session, { fund: fund.slug, body: {} });
    expect([again.status, again.json]).toEqual([200, res.json]);
    const viewer = await person(app, fund.slug, 'viewer', 'platform');
    const refused = await consoleCall(app, 'POST', path, viewer.session, { fund: fund.slug, body: {} });
    expect([refused.status, refused.json.code]).toEqual([403, 'insufficient_scope']);
  });

  /** Runs `first` then `second` while another transaction holds the proposal's row, then lets them go. */
  async function race(id: string, first: () => Promise<{ status: number }>, second: () => Promise<{ status: number }>) {
    const holder = dbOf(app).createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT id FROM proposals WHERE id = $1 FOR UPDATE`, [id]);
      const [{ pid }] = await holder.query(`SELECT pg_backend_pid() AS pid`);
      /** How many sessions wait (directly or behind another waiter) for the holder's row lock. */
      const waiting = async () =>
        (
          await dbOf(app).query(
            `WITH RECURSIVE blocked(pid) AS (
               SELECT $1::int UNION SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY(pg_blocking_pids(a.pid)))
             SELECT count(*)::int - 1 AS n FROM blocked`,
            [pid],
          )
        )[0].n as number;
      const a = first();
      // up to 30 s each: a loaded CI machine may take seconds to bring a request to the lock
      for (let i = 0; i < 3000 && (await waiting()) < 1; i++) await sleep(10);
      const b = second();
      for (let i = 0; i < 3000 && (await waiting()) < 2; i++) await sleep(10);
      expect(await waiting()).toBe(2); // both wait for the row: neither has read its status yet
      await holder.commitTransaction();
      return [await a, await b];
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  }

  it('an approval racing a withdrawal: the row lock lets exactly one win, whichever comes first', async () => {
    const approvedFirst = await stage();
    const [approval, lateWithdrawal] = await race(
      approvedFirst,
      () => approve(approvedFirst),
      () => withdraw(approvedFirst),
    );
    expect([approval.status, lateWithdrawal.status]).toEqual([200, 409]);
    expect((await get(approvedFirst)).json).toMatchObject({ status: 'approved', withdrawnAt: null });
    expect(await entriesFor(approvedFirst)).toHaveLength(1);

    const withdrawnFirst = await stage();
    const [withdrawal, lateApproval] = await race(
      withdrawnFirst,
      () => withdraw(withdrawnFirst),
      () => approve(withdrawnFirst),
    );
    expect([withdrawal.status, lateApproval.status]).toEqual([200, 409]);
    expect((await get(withdrawnFirst)).json).toMatchObject({ status: 'withdrawn', decidedAt: null });
    expect(await entriesFor(withdrawnFirst)).toEqual([]);
    expect((await eventsFor(withdrawnFirst)).map((e: { type: string }) => e.type)).toEqual([]);
  });

  it('the OpenAPI document describes both routes, and the fund MCP server offers the key route as withdraw_proposal', async () => {
    const paths = (await call(app, 'GET', '/api/openapi.json')).json.paths;
    const keyRoute = paths['/api/v1/fund/proposals/{id}/withdraw'].post;
    const sessionRoute = paths['/api/v1/console/proposals/{id}/withdraw'].post;
    expect(keyRoute.description).toContain("Only the proposal's maker may withdraw it");
    expect(keyRoute.description).toContain('Needs an API key holding fund:propose.');
    expect(sessionRoute.description).toContain('Needs a console session (an API key is refused).');
    for (const op of [keyRoute, sessionRoute])
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(Object.keys(keyRoute.responses)).not.toContain('422');
    expect(paths['/api/v1/fund/proposals/journal-entry'].post.responses['422']).toBeDefined();
    const tools = app.get(McpCatalog).toolsFor('fund', ['fund:read', 'fund:propose']);
    expect(tools.some((t) => t.name.startsWith('propose_journal'))).toBe(true);
    expect(tools.filter((t) => /withdraw/.test(t.name + t.path)).map((t) => t.name)).toEqual(['withdraw_proposal']);
  });
});
