import { useId, useState, type FormEvent } from 'react';
import { consoleRequest, PLANS, SCOPES, SERVICE_FORBIDDEN_SCOPES, type KeySummary } from '../api';
import {
  ConfirmDialog,
  ErrorMessage,
  fieldError,
  formatDateTime,
  formProblem,
  Loading,
  Notice,
  PageTitle,
  SecretReveal,
  SubmitButton,
  TextField,
  useAction,
  useLoad,
} from '../components';
import { useSession } from '../session';
import { ConnectedApps } from './ConnectedApps';

const NO_SCOPE =
  'tick at least one: a key bound to this fund with no scope could do nothing on it. For a calculator-only key, choose “No fund” in the Fund switcher above.';

/**
 * The shared demo key (seed:demo) is public on purpose and is not the fund's to replace: nobody mints
 * into its identity (docs/security.md), so the advice given to other unattributed service keys would
 * send an admin looking for an Owner that is never offered and a Revoke that is never there.
 */
const DEMO_KEY =
  'the shared demo key: public on purpose, read-only on this synthetic fund, managed by seed:demo; it cannot be revoked or replaced here (the operator turns it off with DEMO_API_KEY_ENABLED=false)';

interface CreatedKey extends KeySummary {
  token: string;
}

const KEYS = '/api/v1/admin/keys';

export function keyLabel(k: Pick<KeySummary, 'displayPrefix' | 'lastFour'>): string {
  return `${k.displayPrefix}…${k.lastFour}`;
}

interface ServiceAccount {
  id: string;
  name: string;
}

/** The fund's service identities, for an admin (they may mint keys into them); empty for anyone else. */
function useServiceAccounts(): ServiceAccount[] {
  const { membership } = useSession();
  const isAdmin = membership?.role === 'admin';
  const list = useLoad(
    () =>
      isAdmin
        ? consoleRequest<{ items: ServiceAccount[] }>('/api/v1/console/service-accounts')
        : Promise.resolve({ items: [] }),
    [isAdmin],
  );
  return list.data?.items ?? [];
}

function OwnerSelect({
  id,
  value,
  onChange,
  services,
}: {
  id: string;
  value: string;
  onChange(v: string): void;
  services: ServiceAccount[];
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Owner</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={`${id}-help`}>
        <option value="">You</option>
        {services.map((a) => (
          <option key={a.id} value={a.name}>
            service: {a.name}
          </option>
        ))}
      </select>
      <div className="help" id={`${id}-help`}>
        A service identity’s key is not tied to one person’s sign-in, but you are recorded as the one who minted it: it
        never does more than your current role allows, and if you leave the fund it is revoked. A service key cannot
        review proposals.
      </div>
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated(key: CreatedKey): void }) {
  const { session, membership, fund } = useSession();
  const services = useServiceAccounts();
  const [owner, setOwner] = useState('');
  // the server refuses proposals:review for a service identity's key (a checker is a person)
  const allowedScopes = SCOPES.filter(
    (s) => membership?.scopes.includes(s) && !(owner && SERVICE_FORBIDDEN_SCOPES.includes(s)),
  );
  const allowedPlans = PLANS.slice(
    0,
    Math.max(1, PLANS.indexOf((session?.user.plan ?? 'free') as (typeof PLANS)[number]) + 1),
  );
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(allowedScopes.includes('fund:read') ? ['fund:read'] : []);
  const [expiry, setExpiry] = useState('');
  const [plan, setPlan] = useState<string>(allowedPlans[allowedPlans.length - 1]);
  const { error, busy, run, setError } = useAction();
  const planId = useId();
  const ids = useId();
  const planError = fieldError(error, 'plan');
  const scopesError = fieldError(error, 'scopes');
  // a scope ticked before a service owner was chosen is not sent
  const sentScopes = scopes.filter((s) => (allowedScopes as readonly string[]).includes(s));
  // a key bound to a fund with no scope could do nothing on it (the API refuses it): said before sending
  const noScope = fund !== null && sentScopes.length === 0;
  const fields = {
    name: { label: 'Key name', id: `${ids}-name` },
    scopes: { label: 'Scopes', id: `${ids}-scope-0` },
    expiresAt: { label: 'Expires on', id: `${ids}-expires` },
    plan: { label: 'Plan', id: planId },
    account: { label: 'Owner', id: `${ids}-owner` },
    fund: { label: 'Fund (the switcher above)' },
  };

  const toggle = (scope: string, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return; // the button stays focusable while busy (aria-disabled), so a second press is ignored here
    if (noScope) {
      setError(formProblem('scopes', NO_SCOPE));
      return;
    }
    const body = {
      name,
      scopes: sentScopes,
      plan,
      ...(owner ? { account: owner } : {}),
      ...(expiry ? { expiresAt: new Date(`${expiry}T23:59:59Z`).toISOString() } : {}),
    };
    const created = await run(() => consoleRequest<CreatedKey>(KEYS, { method: 'POST', body }));
    if (created) {
      onCreated(created);
      setName('');
    }
  };

  return (
    <form className="panel" onSubmit={submit} noValidate aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <p className="muted">
        {fund
          ? owner
            ? `The key belongs to the service identity ${owner}, bound to ${membership?.fund.name}, minted by you: it can hold only the scopes of your role (${membership?.role}), never proposals:review, and it is revoked if you leave the fund.`
            : `The key is yours, bound to ${membership?.fund.name}; it can hold only the scopes of your role (${membership?.role}).`
          : 'Without a fund the key is calculator-only: it calls /api/v1/calc and the public MCP tools with your plan’s daily cap.'}
      </p>
      <ErrorMessage error={error} title="The key was not created." fields={fields} focus />
      <TextField
        id={fields.name.id}
        label="Key name"
        value={name}
        onChange={setName}
        required
        maxLength={200}
        help="What it is for, e.g. “Reporting agent”."
        error={fieldError(error, 'name')}
      />
      {fund && services.length > 0 && (
        <OwnerSelect id={fields.account.id} value={owner} onChange={setOwner} services={services} />
      )}
      {fund && (
        <fieldset aria-describedby={scopesError || noScope ? `${planId}-scopes-error` : undefined}>
          <legend>Scopes</legend>
          {allowedScopes.map((s, i) => (
            <label className="checkbox" key={s}>
              <input
                id={i === 0 ? fields.scopes.id : undefined}
                type="checkbox"
                checked={scopes.includes(s)}
                aria-invalid={scopesError ? true : undefined}
                onChange={(e) => toggle(s, e.target.checked)}
              />
              {s}
            </label>
          ))}
          {(scopesError || noScope) && (
            <div className="field-error" id={`${planId}-scopes-error`}>
              {scopesError ?? NO_SCOPE}
            </div>
          )}
        </fieldset>
      )}
      <TextField
        id={fields.expiresAt.id}
        label="Expires on"
        type="date"
        value={expiry}
        onChange={setExpiry}
        help="Leave empty for a key that does not expire. It stops working at the end of that day (UTC)."
        error={fieldError(error, 'expiresAt')}
      />
      <div className="field">
        <label htmlFor={planId}>Plan</label>
        <select
          id={planId}
          value={plan}
          onChange={(e) => setPlan(e.target.value)}
          aria-invalid={planError ? true : undefined}
          aria-describedby={planError ? `${planId}-help ${planId}-error` : `${planId}-help`}
        >
          {allowedPlans.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
        <div className="help" id={`${planId}-help`}>
          Up to your account’s plan ({session?.user.plan}); it sets the rate limits and the calculator daily cap.
        </div>
        {planError && (
          <div className="field-error" id={`${planId}-error`}>
            {planError}
          </div>
        )}
      </div>
      <div className="actions">
        <SubmitButton busy={busy}>Create key</SubmitButton>
      </div>
    </form>
  );
}

function KeyRow({ k, onRevoke }: { k: KeySummary; onRevoke(k: KeySummary): void }) {
  const revoked = k.revokedAt !== null;
  const expired = !revoked && k.expiresAt !== null && new Date(k.expiresAt) < new Date();
  return (
    <tr data-testid="key-row" data-key-id={k.id}>
      <td>
        {k.name}
        {k.owner && (
          <div className="muted small">
            {k.owner.kind === 'service' ? `service: ${k.owner.displayName}` : k.owner.displayName}
            {k.owner.kind === 'service' &&
              (k.isDemo
                ? `, ${DEMO_KEY}`
                : k.mintedBy
                  ? `, minted by ${k.mintedBy.displayName}`
                  : ', minted before fundgate recorded by whom: replace it (Create a key, Owner: this service), then revoke this one')}
          </div>
        )}
      </td>
      <td className="mono nowrap">{keyLabel(k)}</td>
      <td>{k.scopes.length ? k.scopes.join(', ') : <span className="muted">calculators only</span>}</td>
      <td>{k.fund?.name ?? <span className="muted">none</span>}</td>
      <td>{k.plan}</td>
      {/* the day is enough in the table (it stays narrow); the time is in the cell's title */}
      <td className="nowrap" title={formatDateTime(k.createdAt)}>
        {formatDateTime(k.createdAt).slice(0, 10)}
      </td>
      <td className="nowrap">{formatDateTime(k.lastUsedAt, 'never')}</td>
      <td className="nowrap">{formatDateTime(k.expiresAt, 'never')}</td>
      <td>
        {revoked ? (
          <span className="badge bad">revoked</span>
        ) : expired ? (
          <span className="badge">expired</span>
        ) : (
          <span className="badge ok">active</span>
        )}
      </td>
      <td>
        {!revoked && !k.isDemo && (
          <button
            type="button"
            className="secondary small"
            onClick={() => onRevoke(k)}
            aria-label={`Revoke ${k.name} (${keyLabel(k)})`}
          >
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}

interface KeyPage {
  items: KeySummary[];
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** The first `pages` pages of keys, newest first, as one list (reloaded whole after a change). */
async function loadKeyPages(pages: number): Promise<KeyPage> {
  let page = await consoleRequest<KeyPage>(KEYS);
  const items = [...page.items];
  for (let i = 1; i < pages && page.nextCursor; i++) {
    page = await consoleRequest<KeyPage>(`${KEYS}?cursor=${encodeURIComponent(page.nextCursor)}`);
    items.push(...page.items);
  }
  return { ...page, items };
}

export function KeysPage() {
  const { fund, membership } = useSession();
  const [pages, setPages] = useState(1);
  const keys = useLoad(() => loadKeyPages(pages), [pages]);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<KeySummary | null>(null);
  const [revokedMsg, setRevokedMsg] = useState<string | null>(null);
  const revoke = useAction();

  const confirmRevoke = async () => {
    if (!revoking) return;
    const done = await revoke.run(() =>
      consoleRequest<KeySummary & { derivedRevoked: number; disabledWebhooks: number }>(`${KEYS}/${revoking.id}`, {
        method: 'DELETE',
      }),
    );
    if (done) {
      const n = done.derivedRevoked;
      const derived =
        n === 0
          ? ''
          : n === 1
            ? ' The key minted with it is revoked too.'
            : ` The ${n} keys minted with it are revoked too.`;
      const w = done.disabledWebhooks;
      const webhooks =
        w === 0
          ? ''
          : w === 1
            ? ' 1 webhook subscription was disabled (it was created with these keys).'
            : ` ${w} webhook subscriptions were disabled (they were created with these keys).`;
      setRevokedMsg(
        `Revoked ${done.name} (${keyLabel(done)}).${derived}${webhooks} It stops working on every instance within 5 seconds.`,
      );
      setRevoking(null);
      keys.reload();
    }
  };

  return (
    <>
      <PageTitle title="Keys">
        API keys{membership ? ` — ${membership.fund.name}` : fund ? '' : ' — calculator keys'}
      </PageTitle>
      {created && (
        <SecretReveal
          label={`Secret of “${created.name}”`}
          value={created.token}
          testId="key-secret"
          onDone={() => setCreated(null)}
        />
      )}
      <CreateKeyForm
        onCreated={(k) => {
          setCreated(k);
          setRevokedMsg(null);
          keys.reload();
        }}
      />
      <section className="panel" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        {/* focus moves to the message: the Revoke button the dialog would return to is gone with the key */}
        {revokedMsg && (
          <Notice key={revokedMsg} focus>
            {revokedMsg}
          </Notice>
        )}
        <ErrorMessage error={keys.error} title="The keys could not be loaded." />
        {keys.loading && !keys.data && <Loading what="keys" />}
        {keys.data && keys.data.items.length === 0 && <p className="muted">No keys yet.</p>}
        {keys.data && keys.data.items.length > 0 && (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Keys table">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Fund</th>
                  <th scope="col">Plan</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.items.map((k) => (
                  <KeyRow
                    key={k.id}
                    k={k}
                    onRevoke={(x) => {
                      revoke.setError(null);
                      setRevoking(x);
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {keys.data?.hasMore && (
          <p>
            <button type="button" className="secondary" disabled={keys.loading} onClick={() => setPages((n) => n + 1)}>
              Show more keys
            </button>{' '}
            <span className="muted">
              {keys.data.items.length} of {keys.data.total} shown
            </span>
          </p>
        )}
      </section>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        danger
        busy={revoke.busy}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      >
        <p>
          <strong>{revoking?.name}</strong> (<span className="mono">{revoking ? keyLabel(revoking) : ''}</span>) stops
          working within 5 seconds, everywhere, and so does every key minted with it. This cannot be undone.
        </p>
        <ErrorMessage error={revoke.error} title="The key was not revoked." />
      </ConfirmDialog>
      <ConnectedApps />
    </>
  );
}
