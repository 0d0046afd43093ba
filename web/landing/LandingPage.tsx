import { SiteFooter, SiteHeader } from '../shared/SiteHeader';
import { TOOLS } from '../tools/catalog';

/** `/`: what the service is, and the way to each of its surfaces. */
export function LandingPage() {
  return (
    <>
      <SiteHeader current="home" />
      <main id="main">
        <section className="panel" aria-labelledby="what">
          <h1 id="what">The API in front of your fund</h1>
          <p>
            fundgate serves a fund’s books — positions, exposure, P&amp;L attribution, value at risk, ledger, capital
            accounts, investors, fees, trades, dealing calendar and LP reports — from a <strong>shadow NAV</strong> it
            computes itself from raw events and reconciles with the administrator. Every answer is redacted at the edge,
            fail-closed. AI agents may <em>propose</em> journal entries, expenses, capital activity and LP reports; a
            different person approves them.
          </p>
          <div className="actions">
            <a className="button" href="/console">
              Open the developer console
            </a>
            <a className="button secondary" href="/tools">
              Try the free tools
            </a>
            <a className="button secondary" href="/api/docs">
              API reference
            </a>
          </div>
        </section>

        <div className="grid">
          <section className="panel" aria-labelledby="console">
            <h2 id="console">Developer console</h2>
            <p>
              Sign in to mint <code>svc_dk_</code> keys scoped to your role on a fund, watch usage and the per-request
              activity log, manage signed webhooks, review proposals as maker-checker and publish NAV runs.
            </p>
            <a href="/console">Sign in or sign up</a>
          </section>
          <section className="panel" aria-labelledby="api">
            <h2 id="api">REST API</h2>
            <p>
              25 read endpoints under <code>/api/v1/fund/</code>, four propose endpoints, seven keyless calculators
              under <code>/api/v1/calc/</code>, <code>/api/v1/me</code> and <code>/api/v1/usage</code>. Errors are RFC
              9457 problem+json.
            </p>
            <a href="/api/docs">Browse the API reference</a> · <a href="/api/openapi.json">OpenAPI document</a>
          </section>
          <section className="panel" aria-labelledby="mcp">
            <h2 id="mcp">MCP servers for agents</h2>
            <p>
              JSON-RPC 2.0 over Streamable HTTP: <code>POST /api/mcp/public</code> (the calculators, no key) and{' '}
              <code>POST /api/mcp</code> (the fund’s data as tools, with a key).
            </p>
          </section>
        </div>

        <section className="panel" aria-labelledby="tools">
          <h2 id="tools">Free web tools</h2>
          <p className="muted">The same deterministic engines as the calculator API. No sign-up needed.</p>
          <ul>
            {TOOLS.map((t) => (
              <li key={t.name}>
                <a href={`/tools/${t.name}`}>{t.title}</a> — {t.question}
              </li>
            ))}
          </ul>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}
