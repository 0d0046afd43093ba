import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { seedBooks, stageEntry } from '../proposals/books-fixture';
import { bootApp, call, createFund, mintKey, type TestApp, type TestKey, uniqueName } from '../utils/app';
import { FundgateClient, FundgateError, OPERATIONS } from '../../sdk/typescript/src/index';

jest.setTimeout(120_000);
const run = promisify(execFile);

/**
 * withdrawProposal (TypeScript) and withdraw_proposal (Python): the maker's POST
 * /api/v1/fund/proposals/{id}/withdraw through both SDKs against the real service — the record
 * REST answers, the optional note, a repeat answered unchanged, another person's proposal 404, an
 * approved one 409, the id encoded as one path segment, no Idempotency-Key, retried as a read.
 */
describe('SDKs: withdrawing a proposal (e2e, real service)', () => {
  let app: TestApp;
  let baseUrl: string;
  let maker: TestKey;
  let colleague: TestKey;
  let reviewer: TestKey;
  let sdk: FundgateClient;

  beforeAll(async () => {
    app = await bootApp();
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const mint = (scopes: Parameters<typeof mintKey>[1]['scopes']) =>
      mintKey(app, { scopes, fund: fund.slug, plan: 'platform' });
    maker = await mint(['fund:propose']);
    colleague = await mint(['fund:propose']);
    reviewer = await mint(['fund:read', 'fund:propose', 'proposals:review']);
    sdk = new FundgateClient({ apiKey: maker.key, baseUrl, maxRetries: 1 });
  });
  afterAll(() => app.close());

  const stage = (key = maker.key) => stageEntry(app, key, uniqueName('sdk-withdraw'));
  const rest = async (id: string) => (await call(app, 'GET', `/api/v1/fund/proposals/${id}`, { key: reviewer.key })).json;
  const approved = async () => {
    const id = await stage();
    const res = await call(app, 'POST', `/api/v1/admin/proposals/${id}/approve`, { key: reviewer.key, body: { note: 'ok' } });
    expect(res.status).toBe(200);
    return id;
  };
  const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as FundgateError);

  it('is one of the operations both SDKs wrap', () => {
    expect(OPERATIONS).toContainEqual({ name: 'withdrawProposal', method: 'POST', path: '/api/v1/fund/proposals/{id}/withdraw' });
  });

  it('TypeScript: withdrawProposal(id) answers the record REST then reads; a note is kept; a repeat answers it unchanged', async () => {
    const id = await stage();
    const withdrawn = await sdk.withdrawProposal(id);
    expect(withdrawn).toMatchObject({ id, status: 'withdrawn', withdrawalNote: null, withdrawnBy: { accountId: maker.accountId, keyId: maker.id } });
    expect(sdk.lastResponse).toMatchObject({ method: 'POST', status: 200, idempotencyKey: null, attempts: 1 });
    expect(sdk.lastResponse?.url).toBe(`${baseUrl}/api/v1/fund/proposals/${id}/withdraw`);
    expect(await rest(id)).toEqual(withdrawn);
    expect(await sdk.withdrawProposal(id)).toEqual(withdrawn);
    const noted = await stage();
    expect(await sdk.withdrawProposal(noted, { note: 'typescript sdk: wrong date' })).toMatchObject({ status: 'withdrawn', withdrawalNote: 'typescript sdk: wrong date' });
  });

  it("TypeScript: someone else's proposal is FundgateError 404, an approved one 409 (not retried); the id is encoded", async () => {
    const theirs = await stage(colleague.key);
    const notMine = await failure(sdk.withdrawProposal(theirs));
    expect(notMine).toBeInstanceOf(FundgateError);
    expect([notMine?.status, notMine?.code, notMine?.detail]).toEqual([404, 'not_found', `proposal ${theirs} was not found`]);
    expect((await rest(theirs)).status).toBe('pending');
    const done = await approved();
    const late = await failure(sdk.withdrawProposal(done));
    expect([late?.status, late?.code, late?.detail]).toEqual([409, 'invalid_state', `proposal ${done} is approved: only a pending proposal can be withdrawn`]);
    expect(sdk.lastResponse?.attempts).toBe(1);
    // unencoded, "../.." would climb out of the path and reach another route; encoded, the route answers
    const slashed = await failure(sdk.withdrawProposal('../../proposals/journal-entry'));
    expect([slashed?.status, slashed?.code, slashed?.errors]).toEqual([400, 'invalid_parameter', [{ field: 'id', message: 'must be a UUID' }]]);
    expect(sdk.lastResponse?.url).toBe(`${baseUrl}/api/v1/fund/proposals/..%2F..%2Fproposals%2Fjournal-entry/withdraw`);
  });

  it('TypeScript: sends {} without an Idempotency-Key and retries a 503 (a repeat is safe)', async () => {
    const seen: { body: unknown; key: string | undefined }[] = [];
    const answers = [
      () => new Response('{"code":"unavailable"}', { status: 503, headers: { 'retry-after': '0' } }),
      () => new Response('{"id":"p1","status":"withdrawn"}', { status: 200 }),
    ];
    const fakeFetch = (async (_url: string, init: RequestInit) => {
      seen.push({ body: init.body, key: (init.headers as Record<string, string>)['idempotency-key'] });
      return answers.shift()!();
    }) as unknown as typeof fetch;
    const c = new FundgateClient({ apiKey: 'k', baseUrl: 'http://x.invalid', fetch: fakeFetch, maxRetries: 2 });
    expect(await c.withdrawProposal('p1')).toEqual({ id: 'p1', status: 'withdrawn' });
    expect(seen).toEqual([{ body: '{}', key: undefined }, { body: '{}', key: undefined }]);
    expect(c.lastResponse?.attempts).toBe(2);
  });

  it('Python: withdraw_proposal answers as REST does, keeps a note, repeats unchanged, refuses 404 and 409, encodes the id', async () => {
    const ids = { pending: await stage(), noted: await stage(), theirs: await stage(colleague.key), approved: await approved() };
    const { stdout } = await run('python3', [join(__dirname, 'python_withdraw_check.py'), JSON.stringify({ baseUrl, makerKey: maker.key, ...ids })], { timeout: 60_000 });
    const py = JSON.parse(stdout);
    expect(py.withdrawn).toMatchObject({ id: ids.pending, status: 'withdrawn', withdrawalNote: null, withdrawnBy: { keyId: maker.id } });
    expect(py.withdrawn).toEqual(await rest(ids.pending));
    expect(py.withdrawnInfo).toEqual({ status: 200, idempotencyKey: null, attempts: 1 });
    expect(py.again).toEqual(py.withdrawn);
    expect(py.noted).toMatchObject({ id: ids.noted, status: 'withdrawn', withdrawalNote: 'python sdk: wrong amount' });
    expect(py.theirs).toEqual({ status: 404, code: 'not_found', detail: `proposal ${ids.theirs} was not found`, errors: [] });
    expect((await rest(ids.theirs)).status).toBe('pending');
    expect(py.approved).toEqual({
      status: 409,
      code: 'invalid_state',
      detail: `proposal ${ids.approved} is approved: only a pending proposal can be withdrawn`,
      errors: [],
    });
    expect(py.approvedAttempts).toBe(1);
    expect(py.slashed).toEqual({ status: 400, code: 'invalid_parameter', detail: 'id: must be a UUID', errors: [{ field: 'id', message: 'must be a UUID' }] });
  });
});
