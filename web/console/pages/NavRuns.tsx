import { useState } from 'react';
import { consoleRequest, query } from '../api';
import {
  ConfirmDialog,
  ErrorMessage,
  formatDateTime,
  Loading,
  Notice,
  PageTitle,
  useAction,
  useLoad,
} from '../components';
import { money } from './ProposalPayload';

/** A NAV run as GET /api/v1/admin/nav-runs lists it (id or navRunId, depending on the listing). */
interface NavRun {
  id?: string;
  navRunId?: string;
  valuationDate: string;
  status: string;
  netAssetValue: string | null;
  grossAssetValue?: string | null;
  failureReason?: string | null;
  startedAt?: string;
  completedAt?: string | null;
  publishedAt?: string | null;
}

const runId = (r: NavRun) => r.id ?? r.navRunId ?? '';

function RunRow({ r, onPublish }: { r: NavRun; onPublish(r: NavRun): void }) {
  const publishable = r.status === 'complete' && !r.publishedAt;
  return (
    <tr data-testid="nav-run-row">
      <td>{r.valuationDate}</td>
      <td>
        <span className={r.status === 'complete' ? 'badge ok' : r.status === 'failed' ? 'badge bad' : 'badge'}>
          {r.status}
        </span>
        {r.failureReason && <div className="small muted">{r.failureReason}</div>}
      </td>
      <td className="num">{money(r.netAssetValue) || '—'}</td>
      <td className="nowrap">{formatDateTime(r.completedAt)}</td>
      <td>{r.publishedAt ? formatDateTime(r.publishedAt) : <span className="muted">not published</span>}</td>
      <td>
        {publishable && (
          <button
            type="button"
            className="small"
            onClick={() => onPublish(r)}
            aria-label={`Publish the NAV of ${r.valuationDate}`}
          >
            Publish
          </button>
        )}
      </td>
    </tr>
  );
}

export function NavRunsPage() {
  const [cursor, setCursor] = useState<string | null>(null);
  const runs = useLoad(
    () =>
      consoleRequest<{ items: NavRun[]; nextCursor?: string | null; hasMore?: boolean }>(
        `/api/v1/admin/nav-runs${query({ cursor, limit: 30 })}`,
      ),
    [cursor],
  );
  const [publishing, setPublishing] = useState<NavRun | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const action = useAction();

  const publish = async () => {
    if (!publishing) return;
    const done = await action.run(() =>
      consoleRequest<{ valuationDate: string; netAssetValue: string | null }>(
        `/api/v1/admin/nav-runs/${runId(publishing)}/publish`,
        { method: 'POST' },
      ),
    );
    if (done) {
      setPublishing(null);
      setMessage(
        `Published the NAV of ${done.valuationDate}${done.netAssetValue ? ` (${money(done.netAssetValue)})` : ''}; nav.published was sent to the webhooks.`,
      );
      runs.reload();
    }
  };

  return (
    <>
      <PageTitle title="NAV runs">NAV runs</PageTitle>
      <p className="muted">
        The shadow NAV computed for each valuation date. Publishing a complete run marks it as the fund’s NAV of that
        date, once.
      </p>
      {message && <Notice>{message}</Notice>}
      <ErrorMessage error={runs.error} title="The NAV runs could not be loaded." />
      {runs.loading && !runs.data && <Loading what="NAV runs" />}
      {runs.data?.items.length === 0 && <p className="muted">No NAV runs yet.</p>}
      {runs.data && runs.data.items.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="NAV runs">
          <table>
            <thead>
              <tr>
                <th scope="col">Valuation date</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Net asset value
                </th>
                <th scope="col">Completed</th>
                <th scope="col">Published</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.data.items.map((r) => (
                <RunRow
                  key={runId(r)}
                  r={r}
                  onPublish={(x) => {
                    action.setError(null);
                    setPublishing(x);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="actions">
        {cursor && (
          <button type="button" className="secondary" onClick={() => setCursor(null)}>
            Latest runs
          </button>
        )}
        {runs.data?.hasMore && runs.data.nextCursor && (
          <button type="button" className="secondary" onClick={() => setCursor(runs.data!.nextCursor!)}>
            Older runs
          </button>
        )}
      </div>
      <ConfirmDialog
        open={publishing !== null}
        title={`Publish the NAV of ${publishing?.valuationDate ?? ''}?`}
        confirmLabel="Publish NAV"
        busy={action.busy}
        onConfirm={publish}
        onCancel={() => setPublishing(null)}
      >
        <p>
          Net asset value {money(publishing?.netAssetValue) || '—'}. Publishing cannot be undone; subscribers receive
          nav.published.
        </p>
        <ErrorMessage error={action.error} title="The run was not published." />
      </ConfirmDialog>
    </>
  );
}
