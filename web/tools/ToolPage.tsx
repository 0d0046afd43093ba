import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { apiRequest, ApiError, describeError, formatDuration, type RateLimitInfo } from '../shared/api';
import { calcPath, type ToolInfo } from './catalog';
import { clientProblems } from './checks';
import { ErrorSummary } from './ErrorSummary';
import { Field } from './Fields';
import { fromSearch, RUN_PARAM, toBody, toSearch, type FormValues } from './form-state';
import { loadFields, type FieldSpec } from './schema';
import { initialKey, KeyField } from './KeyField';
import { RateLimitNote } from './RateLimitNote';
import { ResultPanel } from './ResultPanel';

export type Outcome =
  | { kind: 'idle' }
  | { kind: 'answer'; answer: Record<string, unknown> }
  | {
      kind: 'error';
      message: string;
      fieldErrors: Record<string, string>;
      status: number | null;
      /** The calculator key was refused (401): why, shown at the key field. */
      keyError?: string;
    };

/** Tools whose answer has a table too wide for a column beside the form: the answer goes below it. */
const WIDE_RESULTS = new Set<string>(['fee-calculator']);

/** A 429 in words: the cap, and when it resets (clock time and how long from now). */
function capMessage(err: ApiError, withKey: boolean): string {
  const wait = err.retryAfter ?? err.rateLimit.reset;
  const cap =
    err.rateLimit.limit !== null
      ? `all ${err.rateLimit.limit} calculations of today are used`
      : 'the calculations of today are used';
  if (wait === null) return `Daily limit reached: ${cap}.`;
  const at = new Date(Date.now() + wait * 1000).toISOString().slice(11, 16);
  return `Daily limit reached: ${cap} (${withKey ? 'a cap per key' : 'a cap per address without a key'}). It resets at ${at} UTC, in ${formatDuration(wait)}.`;
}

function fieldsSentence(count: number): string {
  return count === 1 ? 'One input needs fixing:' : `${count} inputs need fixing:`;
}

function errorOutcome(err: unknown, withKey: boolean): Outcome {
  if (err instanceof ApiError) {
    const fieldErrors = err.fieldErrors();
    const listed = Object.keys(fieldErrors).length;
    if (err.status === 401 && withKey) {
      const why = describeError(err);
      return {
        kind: 'error',
        message: `The calculator key was refused (${why}). Correct the Calculator key field, or empty it to calculate without a key.`,
        fieldErrors,
        status: err.status,
        keyError: `refused: ${why}.`,
      };
    }
    const message =
      err.status === 429 ? capMessage(err, withKey) : listed ? fieldsSentence(listed) : describeError(err);
    return { kind: 'error', message, fieldErrors, status: err.status };
  }
  return { kind: 'error', message: describeError(err), fieldErrors: {}, status: null };
}

/** One tool: the form from the API document, Calculate, the answer, limits and exports. */
export function ToolPage({ tool }: { tool: ToolInfo }) {
  const [params, setParams] = useSearchParams();
  const [fields, setFields] = useState<FieldSpec[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [values, setValues] = useState<FormValues>({});
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [rate, setRate] = useState<RateLimitInfo | null>(null);
  const [omitted, setOmitted] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(initialKey);
  const [attempt, setAttempt] = useState(0);
  const resultRef = useRef<HTMLElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  const run = useCallback(
    async (specs: FieldSpec[], vals: FormValues, writeUrl: boolean) => {
      const problems = clientProblems(specs, vals);
      const count = Object.keys(problems).length;
      if (count) {
        setOutcome({ kind: 'error', message: fieldsSentence(count), fieldErrors: problems, status: null });
        return;
      }
      if (writeUrl) {
        const { search, omitted: left } = toSearch(specs, vals);
        setOmitted(left);
        setParams(search, { replace: true });
      }
      setBusy(true);
      try {
        const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
        const res = await apiRequest<Record<string, unknown>>(calcPath(tool.name), {
          method: 'POST',
          body: toBody(specs, vals),
          headers,
        });
        setRate(res.rateLimit);
        setOutcome({ kind: 'answer', answer: res.body });
      } catch (err) {
        // a refused key has no cap of its own: the last key's figures would be stale
        if (err instanceof ApiError && err.rateLimit.limit !== null) setRate(err.rateLimit);
        else if (err instanceof ApiError && err.status === 401) setRate(null);
        setOutcome(errorOutcome(err, key !== ''));
      } finally {
        setBusy(false);
      }
    },
    [tool.name, setParams, key],
  );

  useEffect(() => {
    let live = true;
    // main.tsx keys this page by tool name: a new tool mounts a new page, so fields and outcome start empty
    document.title = `${tool.title} — fundgate free tools`;
    loadFields(tool.name).then(
      (specs) => {
        if (!live) return;
        const initial = fromSearch(specs, params);
        setFields(specs);
        setValues(initial);
        if (params.get(RUN_PARAM) === '1') void run(specs, initial, false);
      },
      (err) => live && setLoadError(describeError(err)),
    );
    return () => {
      live = false;
    };
    // the URL is read once per tool (and per Retry): later changes to it are our own
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tool.name, attempt]);

  useEffect(() => {
    if (outcome.kind === 'answer') resultRef.current?.focus();
    if (outcome.kind === 'error') errorRef.current?.focus();
  }, [outcome]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (fields && !busy) void run(fields, values, true);
  };
  const changeKey = (k: string) => {
    setKey(k);
    setRate(null); // the cap shown was the previous key's
  };
  const set = (name: string) => (v: string | boolean) => setValues((prev) => ({ ...prev, [name]: v }));
  const fieldErrors = outcome.kind === 'error' ? outcome.fieldErrors : {};
  const keyError = outcome.kind === 'error' ? (outcome.keyError ?? null) : null;
  const stacked = fields?.some((f) => f.kind === 'csv' || f.kind === 'text') || WIDE_RESULTS.has(tool.name);

  return (
    <>
      <p className="breadcrumbs no-print">
        <Link to="/">Free tools</Link> › {tool.title}
      </p>
      <h1>{tool.title}</h1>
      <p className="lede">{tool.question}</p>
      <div className={stacked ? 'tool-layout stacked' : 'tool-layout'}>
        <form className="panel tool-form no-print" onSubmit={onSubmit} noValidate aria-label={`${tool.title} inputs`}>
          <h2>Inputs</h2>
          {loadError && (
            <div className="error" role="alert" data-testid="load-error">
              <p className="error-message">The form could not load: {loadError}</p>
              <button
                type="button"
                className="secondary small"
                onClick={() => {
                  setLoadError(null);
                  setAttempt((n) => n + 1);
                }}
              >
                Retry
              </button>
            </div>
          )}
          {!fields && !loadError && <p className="muted">Loading the form…</p>}
          <div className="fields">
            {fields?.map((f) => (
              <Field
                key={f.name}
                field={f}
                value={values[f.name] ?? ''}
                error={fieldErrors[f.name]}
                onChange={set(f.name)}
                onInputMethod={(m) => setValues((prev) => ('inputMethod' in prev ? { ...prev, inputMethod: m } : prev))}
              />
            ))}
          </div>
          {fields && 'inputMethod' in values && <p className="muted small">Entered by: {String(values.inputMethod)}</p>}
          <div className="actions">
            {/* aria-disabled, not disabled, while busy: a disabled button would drop the focus to the page */}
            <button type="submit" disabled={!fields} aria-disabled={busy || undefined}>
              Calculate
            </button>
            {busy && <span role="status">Calculating…</span>}
          </div>
          <RateLimitNote rate={rate} />
          <KeyField value={key} onChange={changeKey} error={keyError} />
        </form>
        <div className="tool-output">
          {outcome.kind === 'error' && (
            <div className="error" role="alert" data-testid="error" tabIndex={-1} ref={errorRef}>
              <ErrorSummary
                message={outcome.message}
                fieldErrors={outcome.fieldErrors}
                keyError={keyError}
                fields={fields ?? []}
              />
            </div>
          )}
          {omitted.length > 0 && (
            <p className="notice no-print">
              The link leaves out {omitted.join(', ')} (too long for a URL): whoever opens it starts from the default
              there.
            </p>
          )}
          {outcome.kind === 'answer' && <ResultPanel tool={tool} answer={outcome.answer} focusRef={resultRef} />}
          {outcome.kind === 'idle' && fields && (
            <p className="muted">
              Change any input and press Calculate. The defaults are the engine’s documented ones.
            </p>
          )}
        </div>
      </div>
    </>
  );
}
