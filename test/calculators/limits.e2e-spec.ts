import { generateKey, isWellFormedKey } from '../../src/keys/key-format';
import { bootApp, call, mintKey, randomIp, type TestApp } from '../utils/app';
import { expectProblem } from './helpers';

const URL = '/api/v1/calc/operating-cost-calculator';
const FREE_CAP = 500;

describe('calculator daily caps (e2e)', () => {
  let app: TestApp;
  let second: TestApp; // another instance on the same Redis
  beforeAll(async () => {
    app = await bootApp();
    second = await bootApp();
  });
  afterAll(async () => {
    await app.close();
    await second.close();
  });

  it('500 a day per IP without a key, counted across two instances: the 501st → 429 with headers; another IP still passes', async () => {
    const ip = randomIp();
    for (let i = 1; i <= FREE_CAP; i++) {
      const res = await call(i % 2 === 0 ? app : second, 'POST', URL, { body: {}, ip });
      if (res.status !== 200) throw new Error(`request ${i} answered ${res.status}: ${res.body}`);
      if (i === 1 || i === FREE_CAP) {
        expect(res.headers['ratelimit-policy']).toBe('"calc-daily";q=500;w=86400');
        expect(res.headers['ratelimit']).toMatch(new RegExp(`^"calc-daily";r=${FREE_CAP - i};t=\\d+$`));
      }
    }
    for (const instance of [app, second]) {
      const blocked = await call(instance, 'POST', URL, { body: {}, ip });
      expectProblem(blocked, 429, 'rate_limited');
      expect(blocked.headers['ratelimit-policy']).toBe('"calc-daily";q=500;w=86400');
      expect(blocked.headers['ratelimit']).toMatch(/^"calc-daily";r=0;t=\d+$/);
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(blocked.headers['ratelimit']).toBe(`"calc-daily";r=0;t=${retryAfter}`);
    }
    // every calculator shares the one daily cap
    expectProblem(await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: {}, ip }), 429, 'rate_limited');
    // X-Forwarded-For from an untrusted peer does not buy a fresh window
    expectProblem(
      await call(app, 'POST', URL, { body: {}, ip, headers: { 'x-forwarded-for': randomIp() } }),
      429,
      'rate_limited',
    );

    const other = await call(app, 'POST', URL, { body: {}, ip: randomIp() });
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit']).toMatch(/^"calc-daily";r=499;t=\d+$/);

    // a developer key raises the cap for the same client IP
    const dev = await mintKey(app, { scopes: [], plan: 'developer' });
    const keyed = await call(app, 'POST', URL, { body: {}, ip, key: dev.key });
    expect(keyed.status).toBe(200);
    expect(keyed.headers['ratelimit-policy']).toBe('"calc-daily";q=10000;w=86400');
    expect(keyed.headers['ratelimit']).toMatch(/^"calc-daily";r=9999;t=\d+$/);
  });

  it('an IPv6 client is counted by its /64: another address of the same network shares the window', async () => {
    const [a, b] = [1, 2].map(() => Math.floor(Math.random() * 0xfffe).toString(16));
    const first = await call(app, 'POST', URL, { body: {}, ip: `2001:db8:${a}:${b}::1` });
    expect(first.headers['ratelimit']).toMatch(/^"calc-daily";r=499;t=\d+$/);
    const sameNet = await call(second, 'POST', URL, { body: {}, ip: `2001:db8:${a}:${b}:ffff:ffff:ffff:fffe` });
    expect(sameNet.headers['ratelimit']).toMatch(/^"calc-daily";r=498;t=\d+$/);
    const nextNet = `2001:db8:${a}:${(parseInt(b, 16) + 1).toString(16)}::1`;
    const otherNet = await call(app, 'POST', URL, { body: {}, ip: nextNet });
    expect(otherNet.headers['ratelimit']).toMatch(/^"calc-daily";r=499;t=\d+$/);
  });

  it('a platform key raises it further', async () => {
    const platform = await mintKey(app, { scopes: [], plan: 'platform' });
    const res = await call(app, 'POST', URL, { body: {}, ip: randomIp(), key: platform.key });
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-policy']).toBe('"calc-daily";q=100000;w=86400');
  });

  it('an invalid key is refused with 401 rather than given the free cap', async () => {
    const malformed = await call(app, 'POST', URL, { body: {}, ip: randomIp(), key: 'svc_dk_not-a-real-key' });
    expectProblem(malformed, 401, 'unauthenticated');
    expect(malformed.headers['www-authenticate']).toMatch(/^Bearer/);
    // well-formed (valid checksum) but never minted
    const unknown = generateKey();
    expect(isWellFormedKey(unknown)).toBe(true);
    expectProblem(await call(app, 'POST', URL, { body: {}, ip: randomIp(), key: unknown }), 401, 'unauthenticated');
    // a real key with one character changed fails its checksum
    const real = await mintKey(app, { scopes: [], plan: 'developer' });
    const flipped = real.key.slice(0, -1) + (real.key.endsWith('A') ? 'B' : 'A');
    expectProblem(await call(app, 'POST', URL, { body: {}, ip: randomIp(), key: flipped }), 401, 'unauthenticated');
    // the real key itself works
    expect((await call(app, 'POST', URL, { body: {}, ip: randomIp(), key: real.key })).status).toBe(200);
  });

  it('a free-plan key is counted by key, not by IP', async () => {
    const free = await mintKey(app, { scopes: [], plan: 'free' });
    const a = await call(app, 'POST', URL, { body: {}, ip: randomIp(), key: free.key });
    const b = await call(second, 'POST', URL, { body: {}, ip: randomIp(), key: free.key });
    expect(a.headers['ratelimit']).toMatch(/r=499;/);
    expect(b.headers['ratelimit']).toMatch(/r=498;/);
  });
});
