import { bootApp, call, createFund, mintKey, type TestApp, type TestKey } from '../utils/app';

/** The auth scheme is case-insensitive (RFC 9110 §11.1): `bearer <key>` was a 401. */
describe('Authorization: the Bearer scheme in any case (e2e)', () => {
  let app: TestApp;
  let reader: TestKey;

  beforeAll(async () => {
    app = await bootApp();
    reader = await mintKey(app, { scopes: ['fund:read'], fund: (await createFund(app)).slug });
  });
  afterAll(() => app.close());

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR', 'Bearer  '])('"%s" then the key', async (scheme) => {
    const res = await call(app, 'GET', '/api/v1/me', { headers: { authorization: `${scheme} ${reader.key}` } });
    expect(res.status).toBe(200);
    expect(res.json.keyId).toBe(reader.id);
  });

  it.each(['Bearerx', 'Basic', 'Bearer\t'])('"%s" then the key is still refused', async (scheme) => {
    const res = await call(app, 'GET', '/api/v1/me', { headers: { authorization: `${scheme} ${reader.key}` } });
    expect(res.status).toBe(401);
  });
});
