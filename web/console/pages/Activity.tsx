import { useId, useState, type FormEvent } from 'react';
import { consoleRequest, query, type KeySummary, type Page } from '../api';
import { ErrorMessage, Loading, PageTitle, TextField, useLoad } from '../components';
import { keyLabel } from './Keys';

interface ActivityItem {
  id: string;
  occurredAt: string;
  requestId: string;
  keyId: string | null;
  /** The connected OAuth app's name when its key made the request. */
  app: string | null;
  userId?: string | null;
  method: string;
  route: string;
  tool: string | null;
  status: number;
  durationMs: string;
  clientIp: string | null;
}

interface Filters {
  keyId: string;
  route: string;
  status: string;
  from: string;
  to: string;
}

/** A connected OAuth app the log can be filtered by (its key). */
interface ActivityApp {
  keyId: string;
  name: string;
  connectedAt: string;
  disconnectedAt: string | null;
}

/** "Claude (connected app, 2026-11-20)", "… disconnected": two connections of one client stay apart. */
function appLabel(a: ActivityApp): string {
  return `${a.name} (connected app, ${a.connectedAt.slice(0, 10)}${a.disconnectedAt ? ', disconnected' : ''})`;
}

const EMPTY: Filters = { keyId: '', route: '', status: '', from: '', to: '' };
const PAGE_SIZE = 50;

function FilterForm({ keys, apps, onApply }: { keys: KeySummary[]; apps: ActivityApp[]; onApply(f: Filters): void }) {
  const [f, setF] = useState<Filters>(EMPTY);
  const keyId = useId();
  const set = (k: keyof Filters) => (v: string) => setF((x) => ({ ...x, [k]: v }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(f);
  };
  return (
    <form className="panel filters" onSubmit={submit} aria-label="Filters">
      <div className="field">
        <label htmlFor={keyId}>Key</label>
        <select id={keyId} value={f.keyId} onChange={(e) => set('keyId')(e.target.value)}>
          <option value="">All keys</option>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name} ({keyLabel(k)})
            </option>
          ))}
          {apps.length > 0 && (
            <optgroup label="Connected apps">
              {apps.map((a) => (
                <option key={a.keyId} value={a.keyId}>
                  {appLabel(a)}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </div>
      <TextField label="Route" value={f.route} onChange={set('route')} placeholder="/api/v1/fund/trades" />
      <TextField
        label="Status"
        type="number"
        value={f.status}
        onChange={set('status')}
        min={100}
        max={599}
        help="An HTTP status, e.g. 403."
      />
      <TextField label="From" type="date" value={f.from} onChange={set('from')} />
      <TextField label="To" type="date" value={f.to} onChange={set('to')} />
      <div className="field actions">
        <button type="submit">Filter</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setF(EMPTY);
            onApply(EMPTY);
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}

function ActivityTable({ items, keyNames }: { items: ActivityItem[]; keyNames: Map<string, string> }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Activity log">
      <table>
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Key</th>
            <th scope="col">Request</th>
            <th scope="col">MCP tool</th>
            <th scope="col" className="num">
              Status
            </th>
            <th scope="col" className="num">
              ms
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => (
            <tr key={a.id} data-testid="activity-row">
              <td className="nowrap">{a.occurredAt.replace('T', ' ').slice(0, 19)}</td>
              <td>
                {a.app !== null ? (
                  <>
                    {a.app} <span className="muted">(connected app)</span>
                  </>
                ) : a.keyId ? (
                  (keyNames.get(a.keyId) ?? <span className="mono">{a.keyId.slice(0, 8)}</span>)
                ) : (
                  <span className="muted">console session</span>
                )}
              </td>
              <td className="mono">
                {a.method} {a.route}
              </td>
              <td className="mono">{a.tool ?? ''}</td>
              <td className="num">
                <span className={a.status >= 400 ? 'badge bad' : 'badge ok'}>{a.status}</span>
              </td>
              <td className="num">{a.durationMs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ActivityPage() {
  const keys = useLoad(() => consoleRequest<{ items: KeySummary[] }>('/api/v1/admin/keys?limit=1000'), []);
  const apps = useLoad(() => consoleRequest<{ items: ActivityApp[] }>('/api/v1/admin/activity/apps'), []);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  // cursors[i] opens page i; page 0 has none. "Previous" pops back along this trail.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    () =>
      consoleRequest<Page<ActivityItem>>(`/api/v1/admin/activity${query({ ...filters, cursor, limit: PAGE_SIZE })}`),
    [filters, cursor],
  );
  const keyNames = new Map((keys.data?.items ?? []).map((k) => [k.id, `${k.name} (${keyLabel(k)})`]));

  return (
    <>
      <PageTitle title="Activity">Activity</PageTitle>
      <p className="muted">
        Every request made with the keys you can see, newest first. MCP calls show the tool they ran.
      </p>
      <FilterForm
        keys={keys.data?.items ?? []}
        apps={apps.data?.items ?? []}
        onApply={(f) => {
          setFilters(f);
          setCursors([null]);
        }}
      />
      <ErrorMessage error={page.error} title="The activity log could not be loaded." />
      {page.loading && <Loading what="activity" />}
      {page.data && page.data.items.length === 0 && <p className="muted">No requests match.</p>}
      {page.data && page.data.items.length > 0 && <ActivityTable items={page.data.items} keyNames={keyNames} />}
      <nav className="actions" aria-label="Activity pages">
        <button
          type="button"
          className="secondary"
          disabled={cursors.length < 2}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </button>
        <span className="muted">Page {cursors.length}</span>
        <button
          type="button"
          className="secondary"
          disabled={!page.data?.hasMore || !page.data.nextCursor}
          onClick={() => setCursors((c) => [...c, page.data!.nextCursor])}
        >
          Older
        </button>
      </nav>
    </>
  );
}
