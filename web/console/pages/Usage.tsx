import { useState, type FormEvent } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDuration } from '../../shared/api';
import { consoleRequest, query } from '../api';
import { ErrorMessage, Loading, PageTitle, TextField, useLoad } from '../components';

interface UsageDay {
  date: string;
  requests: number;
  errors: number;
}
interface RateWindow {
  policy: string;
  limit: number;
  used: number;
  remaining: number;
  reset: number;
  windowSeconds: number;
}
interface Usage {
  from: string;
  to: string;
  totalRequests: number;
  totalErrors: number;
  days: UsageDay[];
  routes: { method: string; route: string; requests: number; errors: number }[];
  rateLimits: RateWindow[];
  calculatorDaily: RateWindow | null;
}

/** Every day from `from` to `to`, zero where the API has no row (it lists only days with requests). */
export function everyDay(from: string, to: string, days: UsageDay[]): UsageDay[] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const out: UsageDay[] = [];
  for (
    let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`);
    t <= end && out.length < 400;
    t += 86_400_000
  ) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push(byDate.get(date) ?? { date, requests: 0, errors: 0 });
  }
  return out;
}

function DaysChart({ days }: { days: UsageDay[] }) {
  const total = days.reduce((n, d) => n + d.requests, 0);
  return (
    <figure className="chart-figure">
      <div
        className="chart"
        role="img"
        aria-label={`Bar chart of requests and errors per day, ${days.length} days, ${total} requests in all. The same figures are in the table below.`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={12} />
            <YAxis allowDecimals={false} fontSize={12} width={40} />
            <Tooltip />
            <Legend />
            <Bar dataKey="requests" name="Requests" fill="#1f4fd1" />
            <Bar dataKey="errors" name="Errors" fill="#b42318" />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted small">Requests and errors (4xx and 5xx answers) per day, UTC.</figcaption>
    </figure>
  );
}

function DaysTable({ days }: { days: UsageDay[] }) {
  return (
    <details>
      <summary>Requests per day as a table</summary>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Requests and errors per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className="num">
                Requests
              </th>
              <th scope="col" className="num">
                Errors
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{d.date}</td>
                <td className="num">{d.requests}</td>
                <td className="num">{d.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function WindowFigure({ w, label }: { w: RateWindow; label: string }) {
  const pct = w.limit > 0 ? Math.min(100, Math.round((w.used / w.limit) * 100)) : 0;
  return (
    <div className="figure">
      <div className="label">{label}</div>
      <div className="value">
        {w.remaining} <span className="small muted">of {w.limit} left</span>
      </div>
      <div className="meter" aria-hidden="true">
        <span style={{ width: `${pct}%` }} />
      </div>
      <div className="small muted">
        {w.used} used; a {formatDuration(w.windowSeconds)} window, resets in {formatDuration(w.reset)}
      </div>
    </div>
  );
}

function UsageBody({ usage }: { usage: Usage }) {
  const days = everyDay(usage.from, usage.to, usage.days);
  return (
    <>
      <div className="figures">
        <div className="figure">
          <div className="label">Requests</div>
          <div className="value">{usage.totalRequests}</div>
        </div>
        <div className="figure">
          <div className="label">Errors</div>
          <div className="value">{usage.totalErrors}</div>
        </div>
        {usage.calculatorDaily && <WindowFigure w={usage.calculatorDaily} label="Calculator daily cap" />}
      </div>
      <section className="panel" aria-labelledby="per-day">
        <h2 id="per-day">Per day</h2>
        {usage.days.length ? <DaysChart days={days} /> : <p className="muted">No requests in this period.</p>}
        {usage.days.length > 0 && <DaysTable days={usage.days} />}
      </section>
      <section className="panel" aria-labelledby="per-route">
        <h2 id="per-route">Per route</h2>
        {usage.routes.length === 0 ? (
          <p className="muted">No requests in this period.</p>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Requests per route">
            <table>
              <thead>
                <tr>
                  <th scope="col">Route</th>
                  <th scope="col" className="num">
                    Requests
                  </th>
                  <th scope="col" className="num">
                    Errors
                  </th>
                </tr>
              </thead>
              <tbody>
                {usage.routes.map((r) => (
                  <tr key={`${r.method} ${r.route}`}>
                    <td className="mono">
                      {r.method} {r.route}
                    </td>
                    <td className="num">{r.requests}</td>
                    <td className="num">{r.errors}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="panel" aria-labelledby="windows">
        <h2 id="windows">Rate-limit windows now</h2>
        <div className="figures">
          {usage.rateLimits.map((w) => (
            <WindowFigure key={w.policy} w={w} label={w.policy} />
          ))}
        </div>
      </section>
    </>
  );
}

export function UsagePage() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [range, setRange] = useState({ from: '', to: '' });
  const usage = useLoad(() => consoleRequest<Usage>(`/api/v1/usage${query(range)}`), [range]);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setRange({ from, to });
  };
  return (
    <>
      <PageTitle title="Usage">Usage</PageTitle>
      <form className="panel filters" onSubmit={apply} aria-label="Period">
        <TextField label="From" type="date" value={from} onChange={setFrom} help="Default: 29 days before the end." />
        <TextField label="To" type="date" value={to} onChange={setTo} help="Default: today (UTC)." />
        <div className="field">
          <button type="submit">Show</button>
        </div>
      </form>
      <ErrorMessage error={usage.error} title="Usage could not be loaded." />
      {usage.loading && !usage.data && <Loading what="usage" />}
      {usage.data && (
        <>
          <p className="muted">
            {usage.data.from} to {usage.data.to}
          </p>
          <UsageBody usage={usage.data} />
        </>
      )}
    </>
  );
}
