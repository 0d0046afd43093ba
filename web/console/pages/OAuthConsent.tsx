import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { consoleRequest } from '../api';
import { ErrorMessage, fieldError, Loading, PageTitle, problemCode, useAction, useLoad } from '../components';
import { StepUp } from './StepUp';

interface ConsentView {
  requestId: string;
  client: { id: string; name: string; kind: string; redirectHost: string; clientUri: string | null };
  requestedScopes: string[];
  funds: { slug: string; name: string; role: string; grantableScopes: string[] }[];
  totpRequired: boolean;
  expiresAt: string;
}

const SCOPE_HELP: Record<string, string> = {
  'fund:read': 'read the fund’s books (NAV, positions, risk, reports)',
  'fund:propose': 'stage proposals that a different manager must approve',
  'nav:publish': 'publish NAV runs',
  'webhooks:manage': 'manage webhook subscriptions',
};

/** /console/oauth/consent?request=…: connect an MCP client to one fund with chosen scopes, or decline. */
export function OAuthConsentPage() {
  const [params] = useSearchParams();
  const requestId = params.get('request') ?? '';
  const [fund, setFund] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  // nothing chosen yet: the first fund is preselected with the requested scopes it may grant (or read only) when the request loads
  const view = useLoad(async () => {
    const loaded = await consoleRequest<ConsentView>(
      `/api/v1/console/oauth/requests/${encodeURIComponent(requestId)}`,
      { noFund: true },
    );
    const first = loaded.funds[0];
    if (first && !fund) {
      setFund(first.slug);
      const wanted = first.grantableScopes.filter((s) => loaded.requestedScopes.includes(s));
      setScopes(wanted.length ? wanted : first.grantableScopes.slice(0, 1));
    }
    return loaded;
  }, [requestId]);
  const action = useAction();
  const fundId = useId();
  const scopesErrorId = useId();
  // The 10-minute two-factor window can lapse while the page is open: the server then answers totp_required.
  const stepUpNeeded = problemCode(action.error) === 'totp_required';
  const chosen = view.data?.funds.find((f) => f.slug === fund);

  const decide = async (approve: boolean) => {
    const path = `/api/v1/console/oauth/requests/${encodeURIComponent(requestId)}/${approve ? 'approve' : 'deny'}`;
    const answer = await action.run(() =>
      consoleRequest<{ redirectTo: string }>(path, {
        method: 'POST',
        noFund: true,
        body: approve ? { fund, scopes } : undefined,
      }),
    );
    if (answer) window.location.assign(answer.redirectTo);
  };
  const toggle = (s: string, on: boolean) => setScopes((x) => (on ? [...x, s] : x.filter((y) => y !== s)));

  if (!view.data)
    return (
      <section className="panel narrow" aria-labelledby="consent-title">
        <PageTitle title="Connect an app">
          <span id="consent-title">Connect an app to fundgate</span>
        </PageTitle>
        {view.loading ? (
          <Loading what="the authorization request" />
        ) : (
          <ErrorMessage error={view.error} title="This authorization request cannot be answered." />
        )}
      </section>
    );
  const v = view.data;
  const fundError = fieldError(action.error, 'fund');
  const scopesError = fieldError(action.error, 'scopes');
  return (
    <section className="panel narrow" aria-labelledby="consent-title">
      <PageTitle title="Connect an app">
        <span id="consent-title">Connect {v.client.name} to fundgate?</span>
      </PageTitle>
      <p>
        <strong data-testid="consent-client">{v.client.name}</strong> asks to act for you. After you approve, your
        browser returns to{' '}
        <strong className="mono" data-testid="consent-redirect-host">
          {v.client.redirectHost}
        </strong>
        .
        {v.client.kind === 'metadata_document' && (
          <>
            {' '}
            The app is identified by <span className="mono">{new URL(v.client.id).host}</span>.
          </>
        )}
      </p>
      {v.client.kind === 'registered' && (
        <p className="notice" data-testid="consent-unverified">
          Unverified app: it registered itself and chose the name “{v.client.name}”; fundgate has not checked who runs
          it. Approve only if you started this connection from the app you mean to connect.
        </p>
      )}
      {(v.totpRequired || stepUpNeeded) && (
        <StepUp
          onVerified={() => {
            action.setError(null);
            view.reload();
          }}
        />
      )}
      {v.funds.length === 0 && (
        <p className="notice">
          You are not a member of any fund, so there is nothing to connect. Ask a fund admin to invite you.
        </p>
      )}
      {v.funds.length > 0 && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void decide(true);
          }}
          noValidate
        >
          <ErrorMessage error={action.error} title="The app was not connected." />
          <div className="field">
            <label htmlFor={fundId}>Fund</label>
            <select
              id={fundId}
              aria-invalid={fundError ? true : undefined}
              aria-describedby={fundError ? `${fundId}-error` : undefined}
              value={fund}
              onChange={(e) => {
                setFund(e.target.value);
                setScopes(['fund:read']);
              }}
            >
              {v.funds.map((f) => (
                <option key={f.slug} value={f.slug}>
                  {f.name} ({f.role})
                </option>
              ))}
            </select>
            {fundError && (
              <div className="field-error" id={`${fundId}-error`}>
                {fundError}
              </div>
            )}
          </div>
          <fieldset aria-describedby={scopesError ? scopesErrorId : undefined}>
            <legend>What the app may do</legend>
            {(chosen?.grantableScopes ?? []).map((s) => (
              <label className="checkbox" key={s}>
                <input
                  type="checkbox"
                  checked={scopes.includes(s)}
                  aria-invalid={scopesError ? true : undefined}
                  onChange={(e) => toggle(s, e.target.checked)}
                />
                {s}: {SCOPE_HELP[s] ?? s}
              </label>
            ))}
            {scopesError && (
              <div className="field-error" id={scopesErrorId}>
                {scopesError}
              </div>
            )}
            <p className="muted small">
              Approving proposals, publishing NAV and managing webhooks or keys are never given to an app.
            </p>
          </fieldset>
          <div className="actions">
            <button type="submit" disabled={action.busy || v.totpRequired || stepUpNeeded || scopes.length === 0}>
              Approve
            </button>
            <button type="button" className="secondary" disabled={action.busy} onClick={() => void decide(false)}>
              Decline
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
