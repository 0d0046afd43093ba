import { bootApp, createFund, dbOf, type TestApp } from '../utils/app';
import { ensureDemoPeople } from '../../src/identity/people';
import { consoleCall, signIn } from './console';

describe('seed:demo console people (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('creates the demo admin and analyst with the given password, or a generated one; re-running resets it', async () => {
    const fund = await createFund(app);
    const chosen = await ensureDemoPeople(dbOf(app), fund.slug, 'a chosen demo password');
    expect(chosen).toMatchObject({
      generated: false,
      emails: ['demo-admin@fundgate.dev', 'demo-analyst@fundgate.dev'],
    });
    const admin = await signIn(app, 'demo-admin@fundgate.dev', 'a chosen demo password');
    const session = await consoleCall(app, 'GET', '/api/v1/console/session', admin);
    expect(session.json.memberships).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fund: expect.objectContaining({ slug: fund.slug }), role: 'admin' }),
      ]),
    );
    const generated = await ensureDemoPeople(dbOf(app), fund.slug, null);
    expect(generated.generated).toBe(true);
    expect(generated.password.length).toBeGreaterThanOrEqual(16);
    const analyst = await signIn(app, 'demo-analyst@fundgate.dev', generated.password);
    const view = await consoleCall(app, 'GET', '/api/v1/console/session', analyst);
    expect(view.json.memberships.find((m: { fund: { slug: string } }) => m.fund.slug === fund.slug).role).toBe(
      'analyst',
    );
    await expect(signIn(app, 'demo-admin@fundgate.dev', 'a chosen demo password')).rejects.toThrow(/401/);
  });
});
