import { useEffect } from 'react';
import { Link } from 'react-router';
import { TOOLS } from './catalog';

/** /tools: the seven tools, one line each on what they answer. */
export function ToolsIndex() {
  useEffect(() => {
    document.title = 'Free fund tools — fundgate';
  }, []);
  return (
    <>
      <h1>Free fund tools</h1>
      <p className="lede">
        Seven calculators on the same deterministic engines as the <a href="/api/docs">calculator API</a> and the public
        MCP server. No sign-up; every answer can be shared as a link and downloaded as JSON or CSV.
      </p>
      <ul className="tool-list">
        {TOOLS.map((t) => (
          <li key={t.name} className="panel">
            <h2>
              <Link to={`/${t.name}`}>{t.title}</Link>
            </h2>
            <p>{t.question}</p>
          </li>
        ))}
      </ul>
      <p className="muted small">Illustrative estimates, not accounting or tax advice.</p>
    </>
  );
}
