import { generateKey } from '../../src/keys/key-format';
import type { DocNode } from '../../src/common/openapi/document-node';
import { seedBooks } from '../proposals/books-fixture';
import { bootApp, call, createFund, mintKey, type TestApp, uniqueName } from '../utils/app';

/** What the OpenAPI document promises about Location and the bearer key is what the service does. */
describe('OpenAPI promises kept: Location, the key format (e2e)', () => {
  let app: TestApp;
  let doc: DocNode;
  let key: string;

  beforeAll(async () => {
    app = await bootApp({ role: 'api' });
    doc = (await call(app, 'GET', '/api/openapi.json')).json;
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    key = (await mintKey(app, { scopes: ['fund:propose'], fund: fund.slug, plan: 'platform' })).key;
  });
  afterAll(() => app.close());

  it('documents Location only on the answers that send one', () => {
    const withLocation: string[] = [];
    for (const [path, item] of Object.entries<DocNode>(doc.paths))
      for (const [method, op] of Object.entries<DocNode>(item))
        for (const [status, response] of Object.entries<DocNode>(op.responses))
          if (response.headers?.Location) withLocation.push(`${status} ${method.toUpperCase()} ${path}`);
    expect(withLocation.sort()).toEqual(
      [
        '201 POST /api/v1/fund/proposals/capital-activity',
        '201 POST /api/v1/fund/proposals/expense',
        '201 POST /api/v1/fund/proposals/journal-entry',
        '201 POST /api/v1/fund/proposals/lp-report',
        '202 POST /api/v1/admin/nav-runs', // the job to poll (test/fund/nav-runs-admin.e2e-spec.ts)
        '409 POST /api/v1/admin/nav-runs', // the job already running (same test)
      ].sort(),
    );
  });

  it('a staged proposal answers Location: where to follow it, also on an idempotent replay', async () => {
    const body = {
      entryDate: '2025-04-15',
      description: 'Located',
      lines: [
        { accountCode: '5500', debit: '7.00' },
        { accountCode: '5600', credit: '7.00' },
      ],
    };
    const headers = { 'idempotency-key': uniqueName('loc') };
    const staged = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', { key, body, headers });
    expect(staged.status).toBe(201);
    expect(staged.headers.location).toBe(`/api/v1/fund/proposals/${staged.json.id}`);
    const followed = await call(app, 'GET', String(staged.headers.location), { key });
    expect([followed.status, followed.json]).toEqual([200, staged.json]);
    const replayed = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', { key, body, headers });
    expect([replayed.status, replayed.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(replayed.headers.location).toBe(staged.headers.location);
  });

  it('describes the bearer key as the keys really are: svc_dk_ and 38 base62 characters (32 + a 6-character CRC-32)', () => {
    const description: string = doc.components.securitySchemes.bearer.description;
    expect(description).toContain('`svc_dk_` followed by 38 base62 characters');
    expect(description).toContain('32 random ones and a 6-character checksum');
    expect(description).not.toMatch(/<id>|<secret>/);
    expect(key).toMatch(/^svc_dk_[0-9A-Za-z]{38}$/);
    expect(generateKey()).toHaveLength(45);
  });
});
