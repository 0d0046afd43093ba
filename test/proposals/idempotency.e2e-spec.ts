import { IdempotencyService, requestFingerprint } from '../../src/proposals/idempotency.service';
import { bootApp, call, createFund, dbOf, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { seedBooks } from './books-fixture';

const JE = '/api/v1/fund/proposals/journal-entry';
const entry = (amount: string) => ({
  entryDate: '2025-03-31',
  description: 'Idempotent entry',
  lines: [
    { accountCode: '5500', debit: amount },
    { accountCode: '5600', credit: amount },
  ],
});

describe('Idempotency-Key on propose endpoints (e2e)', () => {
  let app: TestApp;
  let second: TestApp;
  let agent: TestKey;
  let otherAgent: TestKey;
  let fundId: string;

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    second = await bootApp({ role: 'api' });
    const fund = await createFund(app);
    fundId = fund.id;
    await seedBooks(app, fund.id);
    agent = await mintKey(app, {
      scopes: ['fund:propose'],
      fund: fund.slug,
      account: uniqueName('agent'),
      plan: 'platform',
    });
    otherAgent = await mintKey(app, {
      scopes: ['fund:propose'],
      fund: fund.slug,
      account: uniqueName('agent2'),
      plan: 'platform',
    });
  });
  afterAll(async () => {
    await app.close();
    await second.close();
  });

  const propose = (target: TestApp, key: string, idem: string | undefined, body: unknown, path = JE) =>
    call(target, 'POST', path, { key, body, headers: idem === undefined ? {} : { 'idempotency-key': idem } });
  const proposalsNow = async () =>
    (await dbOf(app).query(`SELECT count(*)::int AS n FROM proposals WHERE fund_id = $1`, [fundId]))[0].n as number;

  it('same key + same body: the first answer is replayed with Idempotent-Replayed, and only one proposal exists', async () => {
    const key = uniqueName('idem');
    const before = await proposalsNow();
    const first = await propose(app, agent.key, key, entry('10.00'));
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Member order does not change the fingerprint.
    const reordered = { lines: entry('10.00').lines, description: 'Idempotent entry', entryDate: '2025-03-31' };
    const again = await propose(app, agent.key, key, reordered);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await proposalsNow()).toBe(before + 1);
  });

  it('same key + different body → 422 idempotency_key_reused (also on another propose endpoint)', async () => {
    const key = uniqueName('idem');
    expect((await propose(app, agent.key, key, entry('11.00'))).status).toBe(201);
    const other = await propose(app, agent.key, key, entry('12.00'));
    expect(other.status).toBe(422);
    expect(other.json.code).toBe('idempotency_key_reused');
    const otherRoute = await propose(
      app,
      agent.key,
      key,
      { category: 'legal', vendor: 'x', amount: '1.00', accrualDate: '2025-01-01', description: 'x' },
      '/api/v1/fund/proposals/expense',
    );
    expect(otherRoute.status).toBe(422);
    expect(otherRoute.json.code).toBe('idempotency_key_reused');
  });

  it('keys are per API key: another key may use the same Idempotency-Key independently', async () => {
    const key = uniqueName('idem');
    const a = await propose(app, agent.key, key, entry('13.00'));
    const b = await propose(app, otherAgent.key, key, entry('13.00'));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json.id).not.toBe(a.json.id);
  });

  it('while the first request is still running → 409 idempotency_in_progress', async () => {
    const key = uniqueName('idem');
    // The first request holds the key (as it does between its claim and its commit).
    const svc = app.get(IdempotencyService);
    const claim = await svc.begin(
      agent.id,
      key,
      'POST proposals/journal-entry',
      requestFingerprint('journal-entry', entry('14.00')),
    );
    expect(claim.fresh).toBe(true);
    const res = await propose(app, agent.key, key, entry('14.00'));
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('idempotency_in_progress');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('concurrent identical requests: exactly one proposal; the others are 409 or the replay', async () => {
    const key = uniqueName('idem');
    const before = await proposalsNow();
    const results = await Promise.all(Array.from({ length: 10 }, () => propose(app, agent.key, key, entry('15.00'))));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const originals = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.json.code).toBe('idempotency_in_progress');
    for (const r of results.filter((x) => x.status === 201)) expect(r.json.id).toBe(originals[0].json.id);
    expect(await proposalsNow()).toBe(before + 1);
  });

  it('two app instances share the records: concurrent calls on both make one proposal, and either replays it', async () => {
    const key = uniqueName('idem');
    const before = await proposalsNow();
    const results = await Promise.all(
      [app, second, app, second].map((target) => propose(target, agent.key, key, entry('16.00'))),
    );
    expect(results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await proposalsNow()).toBe(before + 1);
    const id = results.find((r) => r.status === 201)!.json.id;
    for (const target of [app, second]) {
      const replay = await propose(target, agent.key, key, entry('16.00'));
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json.id).toBe(id);
    }
    const mismatch = await propose(second, agent.key, key, entry('17.00'));
    expect(mismatch.json.code).toBe('idempotency_key_reused');
  });

  it('a refused request (422) is replayed as the same problem', async () => {
    const key = uniqueName('idem');
    const bad = {
      ...entry('1.00'),
      lines: [
        { accountCode: '5500', debit: '1.00' },
        { accountCode: '5600', credit: '2.00' },
      ],
    };
    const first = await propose(app, agent.key, key, bad);
    expect(first.status).toBe(422);
    expect(first.json.code).toBe('unbalanced_entry');
    const again = await propose(app, agent.key, key, bad);
    expect(again.status).toBe(422);
    expect(again.json.code).toBe('unbalanced_entry');
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('validates the header: 1..255 visible ASCII characters', async () => {
    for (const bad of ['', 'has space', 'x'.repeat(256), 'tab\there']) {
      const res = await propose(app, agent.key, bad, entry('1.00'));
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid_parameter');
      expect(res.json.errors[0].field).toBe('Idempotency-Key');
    }
    expect((await propose(app, agent.key, '~'.repeat(255), entry('1.00'))).status).toBe(201);
  });

  it('records expire after 24 h: the key is then free, and the scheduled purge deletes them', async () => {
    const key = uniqueName('idem');
    expect((await propose(app, agent.key, key, entry('18.00'))).status).toBe(201);
    const [row] = await dbOf(app).query(
      `SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2`,
      [agent.id, key],
    );
    expect(row.ttl).toBe(24 * 3600);
    await dbOf(app).query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key_id = $1 AND idempotency_key = $2`,
      [agent.id, key],
    );
    const reused = await propose(app, agent.key, key, entry('19.00'));
    expect(reused.status).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    await dbOf(app).query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key_id = $1 AND idempotency_key = $2`,
      [agent.id, key],
    );
    expect(await app.get(IdempotencyService).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(
      await dbOf(app).query(`SELECT 1 FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2`, [
        agent.id,
        key,
      ]),
    ).toHaveLength(0);
  });
});
