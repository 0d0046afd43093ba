import { useState } from 'react';
import { consoleRequest } from '../api';
import { ConfirmDialog, ErrorMessage, formatDateTime, Loading, Notice, useAction, useLoad } from '../components';

export interface ConnectedApp {
  id: string;
  clientId: string;
  clientName: string;
  clientKind: string;
  redirectHost: string;
  fund: { slug: string; name: string };
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

const APPS = '/api/v1/console/oauth/apps';

/** The person's connected MCP clients (OAuth grants) on every fund, each with a disconnect button. */
export function ConnectedApps() {
  const apps = useLoad(() => consoleRequest<{ items: ConnectedApp[] }>(APPS, { noFund: true }), []);
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const revoke = useAction();

  const confirm = async () => {
    if (!revoking) return;
    const done = await revoke.run(() => consoleRequest(`${APPS}/${revoking.id}`, { method: 'DELETE', noFund: true }));
    if (done) {
      setMessage(`Disconnected ${revoking.clientName}. Its tokens stopped working at once.`);
      setRevoking(null);
      apps.reload();
    }
  };

  return (
    <section className="panel" aria-labelledby="apps-title">
      <h2 id="apps-title">Connected apps</h2>
      <p className="muted">
        MCP clients you signed in with OAuth. Each acts for you on one fund with the scopes you granted, never more than
        your role.
      </p>
      {message && <Notice>{message}</Notice>}
      <ErrorMessage error={apps.error} title="The connected apps could not be loaded." />
      {apps.loading && !apps.data && <Loading what="connected apps" />}
      {apps.data && apps.data.items.length === 0 && <p className="muted">No connected apps.</p>}
      {apps.data && apps.data.items.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Connected apps table">
          <table>
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Fund</th>
                <th scope="col">Scopes</th>
                <th scope="col">Connected</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.items.map((a) => (
                <tr key={a.id} data-testid="app-row" data-app-id={a.id}>
                  <td>
                    {a.clientName}
                    <div className="muted small">redirects to {a.redirectHost}</div>
                  </td>
                  <td>{a.fund.name}</td>
                  <td>{a.scopes.join(', ')}</td>
                  <td className="nowrap">{formatDateTime(a.createdAt)}</td>
                  <td className="nowrap">{formatDateTime(a.lastUsedAt, 'never')}</td>
                  <td>
                    <button
                      type="button"
                      className="secondary small"
                      onClick={() => {
                        revoke.setError(null);
                        setRevoking(a);
                      }}
                      aria-label={`Disconnect ${a.clientName}`}
                    >
                      Disconnect
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Disconnect this app?"
        confirmLabel="Disconnect app"
        danger
        busy={revoke.busy}
        onConfirm={confirm}
        onCancel={() => setRevoking(null)}
      >
        <p>
          <strong>{revoking?.clientName}</strong> loses access to {revoking?.fund.name} at once; to use it again you
          sign in from the app and consent again.
        </p>
        <ErrorMessage error={revoke.error} title="The app was not disconnected." />
      </ConfirmDialog>
    </section>
  );
}
