import { useState } from 'react';
import { consoleRequest, query, type Page } from '../api';
import { ErrorMessage, formatDateTime, Loading, Notice, useAction, useLoad } from '../components';

interface Attempt {
  attemptNo: number;
  attemptedAt: string;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  responseSnippet: string | null;
}

interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attemptCount: number;
  createdAt: string;
  completedAt: string | null;
  /** Pending after a failed attempt: when the next one is due (not before; a worker may start it a little later). */
  nextAttemptAt: string | null;
  attempts: Attempt[];
}

/**
 * A delivery's attempts. At 375 px the table scrolls sideways inside its box: the box takes focus
 * (arrow keys scroll it) and is a region named for the delivery and its subscription's URL.
 */
function AttemptsTable({ attempts, label }: { attempts: Attempt[]; label: string }) {
  if (attempts.length === 0) return <p className="muted small">No attempt yet.</p>;
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">At</th>
            <th scope="col" className="num">
              HTTP
            </th>
            <th scope="col" className="num">
              ms
            </th>
            <th scope="col">Error / answer</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr key={a.attemptNo}>
              <td>{a.attemptNo}</td>
              <td className="nowrap">{formatDateTime(a.attemptedAt, '—', true)}</td>
              <td className="num">{a.statusCode ?? '—'}</td>
              <td className="num">{a.latencyMs ?? '—'}</td>
              <td className="mono small">{a.error ?? a.responseSnippet ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function statusBadge(status: string) {
  const cls = status === 'succeeded' ? 'badge ok' : status === 'failed' ? 'badge bad' : 'badge';
  return <span className={cls}>{status}</span>;
}

/**
 * The API queues an ended delivery again: failed, cancelled (e.g. its subscription was disabled), or
 * succeeded and lost on the receiver's side (sent again with the same webhook-id).
 */
const RETRYABLE = new Set(['failed', 'cancelled', 'succeeded']);
/** Test events are sent to a disabled subscription too; its other deliveries are not (a retry is 409). */
const TEST_EVENT_TYPE = 'webhook.test';

/** Whether the API would queue this delivery again now. */
function retryable(d: Delivery, subscriptionEnabled: boolean): boolean {
  return RETRYABLE.has(d.status) && (subscriptionEnabled || d.eventType === TEST_EVENT_TYPE);
}

/**
 * When a pending delivery is tried next: the API dates the retry after a failed attempt (on the
 * operator's WEBHOOK_RETRY_DELAYS); none while an attempt is in flight, or for one that has none yet.
 */
function nextAttempt(d: Delivery): string {
  if (d.status !== 'pending') return '';
  if (d.nextAttemptAt) return `. Next attempt due ${formatDateTime(d.nextAttemptAt, '—', true)}`;
  return d.attemptCount === 0 ? ', first attempt queued' : ', retrying';
}

/**
 * A subscription's deliveries, newest first, each with every attempt; ended ones can be retried (a
 * succeeded one sent again) while the subscription is enabled (test events at any time). Paged by cursor with a
 * trail (Newer steps back, Newest and Refresh go to the first page). `onRefresh` runs with every refresh and
 * retry: a delivery's answer changes its subscription too (a 410 disables it), so the card reloads with it;
 * `refreshKey` changes when the card queued a delivery (Send test).
 */
export function Deliveries({
  webhookId,
  url,
  enabled,
  refreshKey,
  onRefresh,
}: {
  webhookId: string;
  url: string;
  enabled: boolean;
  refreshKey: number;
  onRefresh(): void;
}) {
  // cursors[i] opens page i; page 0 has none
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const base = `/api/v1/webhooks/${webhookId}/deliveries`;
  const list = useLoad(
    () => consoleRequest<Page<Delivery>>(`${base}${query({ cursor, limit: 20 })}`),
    [cursor, refreshKey],
  );
  const newest = () => {
    if (cursors.length > 1) setCursors([null]);
    else list.reload();
    onRefresh();
  };
  const retry = useAction();
  const [message, setMessage] = useState<string | null>(null);

  const retryOne = async (d: Delivery) => {
    if (await retry.run(() => consoleRequest(`${base}/${d.id}/retry`, { method: 'POST' }))) {
      setMessage(`Delivery of ${d.eventId} queued again.`);
      list.reload();
      onRefresh();
    }
  };

  return (
    <section aria-label={`Deliveries to ${url}`} className="deliveries">
      <div className="actions">
        <button type="button" className="secondary small" onClick={newest}>
          Refresh deliveries
        </button>
      </div>
      {message && <Notice>{message}</Notice>}
      <ErrorMessage error={retry.error} title="The retry was refused." />
      <ErrorMessage error={list.error} title="The deliveries could not be loaded." />
      {list.loading && <Loading what="deliveries" />}
      {list.data?.items.length === 0 && <p className="muted">No deliveries yet. “Send test” queues one.</p>}
      {list.data?.items.map((d) => (
        <div key={d.id} className="proposal">
          <p>
            <strong>{d.eventType}</strong> <span className="mono small">{d.eventId}</span> {statusBadge(d.status)}{' '}
            <span className="muted small">
              created {formatDateTime(d.createdAt, '—', true)}, {d.attemptCount} attempt
              {d.attemptCount === 1 ? '' : 's'}
              {nextAttempt(d)}
            </span>
          </p>
          <AttemptsTable attempts={d.attempts} label={`Attempts of ${d.eventId} to ${url}`} />
          {retryable(d, enabled) && (
            <button type="button" className="secondary small" onClick={() => retryOne(d)} disabled={retry.busy}>
              {d.status === 'succeeded' ? `Send ${d.eventId} again` : `Retry delivery of ${d.eventId}`}
            </button>
          )}
        </div>
      ))}
      {(cursors.length > 1 || list.data?.hasMore) && (
        <div className="actions" role="group" aria-label="Delivery pages">
          <button type="button" className="secondary small" disabled={cursors.length < 2} onClick={newest}>
            Newest
          </button>
          <button
            type="button"
            className="secondary small"
            disabled={cursors.length < 2}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            Newer
          </button>
          <span className="muted small">Page {cursors.length}</span>
          <button
            type="button"
            className="secondary small"
            // while a page loads, the list still holds the previous page: its cursor would be pushed twice
            // (a second click can come before the disabled state is drawn: the push is idempotent too)
            disabled={list.loading || !list.data?.hasMore || !list.data.nextCursor}
            onClick={() => {
              const next = list.data!.nextCursor;
              setCursors((c) => (c[c.length - 1] === next ? c : [...c, next]));
            }}
          >
            Older deliveries
          </button>
        </div>
      )}
    </section>
  );
}
