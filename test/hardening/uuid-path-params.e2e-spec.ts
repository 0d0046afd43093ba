import { randomUUID } from 'node:crypto';
import { bootApp, call, createFund, mintKey, type TestApp } from '../utils/app';
import { HOST, ORIGIN, person } from '../identity/console';
import { SCOPES } from '../../src/common/auth/scopes';
import { expectProblem } from './helpers';

/** Path parameters that are not UUIDs: an invitation's token (anything else named here needs a reason). */
const NOT_UUIDS = new Set(['token']);

/** A body the route accepts, where it needs one: the id must be what is refused, not the body. */
const BODIES: Record<string, unknown> = {
  'POST /api/v1/admin/proposals/{id}/reject': { reason: 'no' },
  'PATCH /api/v1/console/members/{userId}': { role: 'viewer' },
  'POST /api/v1/console/oauth/requests/{id}/approve': { fund: 'demo', scopes: ['fund:read'] },
};

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * docs/errors.md: a path parameter that is not valid is 400 invalid_parameter naming it. Every route of
 * the OpenAPI document with a UUID path parameter gets 'abc' there (any other parameter a UUID) from a
 * caller who may call it (an admin key with every scope, and an admin's console session for the
 * session-only routes), and must refuse it naming the parameter, never a 404.
 */
describe('every UUID path parameter refuses a non-UUID with 400 invalid_parameter (e2e)', () => {
  let app: TestApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    app = await bootApp();
    const fund = await createFund(app);
    const admin = await mintKey(app, { scopes: [...SCOPES], fund: fund.slug, plan: 'platform' });
    const { session } = await person(app, fund.slug, 'admin', 'platform');
    headers = {
      authorization: `Bearer ${admin.key}`,
      host: HOST,
      origin: ORIGIN,
      cookie: session.cookie,
      'x-csrf-token': session.csrf,
      'x-fundgate-fund': fund.slug,
    };
  });
  afterAll(() => app.close());

  /** [route, parameter, url] for each UUID path parameter of each operation of the document. */
  async function targets(): Promise<[string, string, string][]> {
    const doc = (await call(app, 'GET', '/api/openapi.json')).json;
    const out: [string, string, string][] = [];
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const method of Object.keys(ops).filter((m) => ['get', 'post', 'patch', 'delete'].includes(m))) {
        for (const p of params.filter((name) => !NOT_UUIDS.has(name))) {
          const url = params.reduce((u, q) => u.replace(`{${q}}`, q === p ? 'abc' : randomUUID()), path);
          out.push([`${method.toUpperCase()} ${path}`, p, url]);
        }
      }
    }
    return out;
  }

  it('walks them all', async () => {
    const all = await targets();
    expect(all.length).toBeGreaterThanOrEqual(20);
    const wrong: unknown[] = [];
    for (const [route, param, url] of all) {
      const method = route.split(' ')[0] as Method;
      const res = await call(app, method, url, { headers, body: BODIES[route] });
      const got = { status: res.status, code: res.json?.code, errors: res.json?.errors };
      const want = { status: 400, code: 'invalid_parameter', errors: [{ field: param, message: 'must be a UUID' }] };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push({ route, param, ...got });
    }
    expect(wrong).toEqual([]);
  });

  it('and the older NAV job path outside the document', async () => {
    const res = await call(app, 'GET', '/api/v1/admin/nav-runs/jobs/abc', { headers });
    expectProblem(res, 400, 'invalid_parameter');
    expect(res.json.errors).toEqual([{ field: 'id', message: 'must be a UUID' }]);
  });
});
