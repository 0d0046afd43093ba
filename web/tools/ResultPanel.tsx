import type { RefObject } from 'react';
import type { ToolInfo } from './catalog';
import { downloadText } from './download';
import { jsonText } from './json-text';
import { VIEWS } from './results';

export const DISCLAIMER = 'Illustrative estimates, not accounting or tax advice.';

/** The answer: the tool's figures, charts and tables, the disclaimer, and the exports. */
export function ResultPanel({
  tool,
  answer,
  focusRef,
}: {
  tool: ToolInfo;
  answer: Record<string, unknown>;
  focusRef: RefObject<HTMLElement | null>;
}) {
  const view = VIEWS[tool.name];
  return (
    <section
      className="panel result"
      data-testid="result"
      aria-labelledby="result-heading"
      tabIndex={-1}
      ref={focusRef}
    >
      <h2 id="result-heading">Result</h2>
      <p className="notice disclaimer" data-testid="disclaimer">
        {DISCLAIMER}
      </p>
      {view.render(answer)}
      <div className="actions no-print">
        <button
          type="button"
          className="secondary"
          onClick={() => downloadText(`${tool.name}.json`, JSON.stringify(answer, null, 2) + '\n', 'application/json')}
        >
          Download JSON
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => downloadText(`${tool.name}.csv`, view.csv(answer) + '\n', 'text/csv')}
        >
          Download CSV
        </button>
        <button type="button" className="secondary" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <p className="muted small">
        Computed by <code>POST /api/v1/calc/{tool.name}</code>, the same engine as the API and the public MCP server.{' '}
        {jsonText(answer.disclaimer)}
      </p>
    </section>
  );
}
