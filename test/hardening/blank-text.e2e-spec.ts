import { bootApp, call, createFund, mintKey, type TestApp, type TestKey } from '../utils/app';
import { consoleCall, person } from '../identity/console';
import { seedBooks } from '../proposals/books-fixture';
import { expectProblem, journalEntry } from './helpers';

const BLANK = [{ message: 'must not be blank' }];

/**
 * A text of spaces passed where a length check alone stood: a rejection reason, a key name, a new
 * password (twelve spaces passed the 12-character minimum), a display name. Each is now a 400 naming
 * the field, as the propose routes' texts already were.
 */
describe('blank text is refused (e2e)', () => {
  let app: TestApp;
  let agent: TestKey;
  let reviewer: TestKey;

  beforeAll(async () => {
    app = await bootApp();
    const fund = await createFund(app);
    await seedBooks(app, fund.id);
    agent = await mintKey(app, { scopes: ['fund:read', 'fund:propose', 'keys:manage'], fund: fund.slug });
    reviewer = await mintKey(app, { scopes: ['fund:read', 'proposals:review'], fund: fund.slug });
  });
  afterAll(() => app.close());

  const field = (name: string) => BLANK.map((e) => ({ field: name, ...e }));

  it('a rejection reason or an approval note of spaces', async () => {
    const proposed = await call(app, 'POST', '/api/v1/fund/proposals/journal-entry', {
      key: agent.key,
      body: journalEntry(),
    });
    expect(proposed.status).toBe(201);
    const decide = (action: string, body: unknown) =>
      call(app, 'POST', `/api/v1/admin/proposals/${proposed.json.id}/${action}`, { key: reviewer.key, body });
    const reject = await decide('reject', { reason: '   ' });
    expectProblem(reject, 400, 'invalid_parameter');
    expect(reject.json.errors).toEqual(field('reason'));
    expect((await decide('approve', { note: ' \t ' })).json.errors).toEqual(field('note'));
    expect((await call(app, 'GET', `/api/v1/fund/proposals/${proposed.json.id}`, { key: agent.key })).json.status).toBe(
      'pending',
    );
  });

  it('a key name of spaces', async () => {
    const res = await call(app, 'POST', '/api/v1/admin/keys', {
      key: agent.key,
      body: { name: '   ', scopes: ['fund:read'] },
    });
    expectProblem(res, 400, 'invalid_parameter');
    expect(res.json.errors).toEqual(field('name'));
  });

  it('a new password of spaces (sign-up, invitation, change of password), a display name of spaces', async () => {
    const spaces = ' '.repeat(12);
    const signUp = await consoleCall(app, 'POST', '/api/v1/console/sign-up', null, {
      body: { email: 'blank-password@example.com', displayName: '  ', password: spaces },
    });
    expectProblem(signUp, 400, 'invalid_parameter');
    expect(signUp.json.errors).toEqual([...field('displayName'), ...field('password')]);
    const accept = await consoleCall(app, 'POST', '/api/v1/console/invitations/no-such-token/accept', null, {
      body: { displayName: ' ', password: spaces },
    });
    expect(accept.json.errors).toEqual([...field('displayName'), ...field('password')]);
    const p = await person(app, null, null);
    const change = await consoleCall(app, 'POST', '/api/v1/console/account/password', p.session, {
      body: { currentPassword: 'whatever', newPassword: spaces },
    });
    expect(change.json.errors).toEqual(field('newPassword'));
  });
});
