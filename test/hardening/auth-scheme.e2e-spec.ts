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

/** The OAuth token and revocation endpoints read client_secret_basic credentials with the scheme in any case too. */
describe('OAuth client authentication: the Basic scheme in any case (e2e)', () => {
  let app: TestApp;
  let credentials: string;

  beforeAll(async () => {
    app = await bootApp();
    const reg = await call(app, 'POST', '/oauth/register', {
      body: { redirect_uris: ['https://client.example/cb'], token_endpoint_auth_method: 'client_secret_basic' },
    });
    expect(reg.status).toBe(201);
    credentials = Buffer.from(`${reg.json.client_id}:${reg.json.client_secret}`).toString('base64');
  });
  afterAll(() => app.close());

  const form = (path: string, body: Record<string, string>, authorization: string) =>
    call(app, 'POST', path, {
      body: new URLSearchParams(body).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
    });

  it.each(['Basic', 'basic', 'BASIC', 'bAsIc'])('"%s" then the credentials authenticate the client', async (scheme) => {
    // authenticated, so the request gets as far as the refresh token, which is not valid
    const token = await form(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: 'x' },
      `${scheme} ${credentials}`,
    );
    expect([token.status, token.json.error]).toEqual([400, 'invalid_grant']);
    const revoke = await form('/oauth/revoke', { token: 'x' }, `${scheme} ${credentials}`);
    expect(revoke.status).toBe(200);
  });

  it('"basic" with a wrong secret is refused as a failed authentication, not as no client', async () => {
    const wrong = Buffer.from(`${Buffer.from(credentials, 'base64').toString().split(':')[0]}:wrong`).toString(
      'base64',
    );
    const res = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x' }, `basic ${wrong}`);
    expect([res.status, res.json.error, res.json.error_description]).toEqual([
      401,
      'invalid_client',
      'client authentication failed',
    ]);
  });
});
