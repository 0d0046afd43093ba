import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type DependencyList,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';
import { ApiError, describeError } from '../shared/api';

/** What a problem code means for the person reading it, beyond the server's detail. */
const EXPLANATIONS: Record<string, string> = {
  maker_checker_violation:
    'Maker-checker: a proposal is approved by a different person from the one whose key staged it, who holds manager or admin on the fund now (and, where the fund asks for it, has verified a TOTP code in the last 10 minutes).',
  insufficient_scope:
    'Your role on this fund (or the key used) does not allow this action. An admin of the fund can change your role.',
  csrf_failed: 'The page’s security token is out of date. Reload the page and try again.',
  totp_required: 'This account uses two-factor authentication: enter the 6-digit code from your authenticator app.',
};

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function problemCode(err: unknown): string | null {
  return err instanceof ApiError ? (err.problem.code ?? null) : null;
}

/** Where a form's field errors point: the on-screen label of each API field, and the control to focus. */
export type FieldTargets = Record<string, { label: string; id?: string }>;

/** The first message of each field, in the server's order (a second one for the same field only repeats the problem). */
function firstPerField(err: unknown): { field: string; message: string }[] {
  const seen = new Set<string>();
  const out: { field: string; message: string }[] = [];
  for (const f of err instanceof ApiError ? (err.problem.errors ?? []) : []) {
    if (seen.has(f.field)) continue;
    seen.add(f.field);
    out.push(f);
  }
  return out;
}

/**
 * The message region of a form or page: the problem's detail, what it means, and its field errors
 * (by the form's labels when `fields` names them, each a link to its control). With `focus`, it takes
 * the keyboard focus when an error appears (a refused form: the submit button keeps no focus of use).
 * `detail` says what the problem means on this page, in place of the server's detail and the
 * console-wide words for its code.
 */
export function ErrorMessage({
  error,
  title,
  fields: targets,
  focus,
  detail,
}: {
  error: unknown;
  title?: string;
  fields?: FieldTargets;
  focus?: boolean;
  /** What the problem means here, in place of the server's detail and the explanation of its code. */
  detail?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus && error) ref.current?.focus();
  }, [focus, error]);
  if (!error) return null;
  const code = problemCode(error);
  const fields = firstPerField(error);
  const meaning = detail === undefined && code ? EXPLANATIONS[code] : undefined;
  return (
    <div className="error" role="alert" ref={ref} tabIndex={focus ? -1 : undefined}>
      <strong>{title ?? 'That did not work.'}</strong>{' '}
      {fields.length ? 'Check these fields:' : (detail ?? sentence(describeError(error)))}
      {meaning && <p className="explain">{meaning}</p>}
      {fields.length > 0 && (
        <ul>
          {fields.map((f) => {
            const target = targets?.[f.field];
            const id = target?.id;
            return (
              <li key={f.field}>
                {!target ? (
                  <code>{f.field}</code>
                ) : id ? (
                  <a
                    href={`#${id}`}
                    onClick={(e) => {
                      e.preventDefault();
                      document.getElementById(id)?.focus();
                    }}
                  >
                    {target.label}
                  </a>
                ) : (
                  target.label
                )}
                : {f.message}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** A refusal found in the page before anything is sent, shaped as the API's (400 naming the field). */
export function formProblem(field: string, message: string): ApiError {
  return new ApiError(
    { status: 400, code: 'invalid_parameter', detail: `${field}: ${message}`, errors: [{ field, message }] },
    { limit: null, remaining: null, reset: null, policy: null },
    null,
  );
}

/**
 * A success or information message announced politely. With `focus` it takes the keyboard focus when
 * it appears (after an action whose button is gone, e.g. a revoked key's Revoke).
 */
export function Notice({
  children,
  kind = 'success',
  focus,
}: {
  children: ReactNode;
  kind?: 'success' | 'notice';
  focus?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div className={kind} role="status" ref={ref} tabIndex={focus ? -1 : undefined}>
      {children}
    </div>
  );
}

/**
 * A form's submit button: it stays focusable while its request runs (aria-disabled, aria-busy), so a
 * refused form keeps the keyboard where it was; the form ignores a second press while busy.
 */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}

/** The field's error: its first message (a second one for the same field only repeats the problem). */
export function fieldError(err: unknown, field: string): string | undefined {
  return firstPerField(err).find((f) => f.field === field)?.message;
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  help?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its help and its field error wired by aria-describedby. */
export function TextField({
  label,
  value,
  onChange,
  error,
  help,
  type = 'text',
  ref,
  id: given,
  ...rest
}: TextFieldProps) {
  const own = useId();
  const id = given ?? own;
  const described = [help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={ref}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...rest}
      />
      {help && (
        <div className="help" id={`${id}-help`}>
          {help}
        </div>
      )}
      {error && (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}

interface SecretRevealProps {
  label: string;
  value: string;
  testId: string;
  onDone?: () => void;
}

/**
 * A secret shown once: the value, a copy button and a warning that it will not be shown again.
 * Keyed by the value: a second secret shown in its place (a key minted while one shows, a second
 * rotation) is a new panel, so focus moves to it again and the copy message starts over.
 */
export function SecretReveal(props: SecretRevealProps) {
  return <SecretPanel key={props.value} {...props} />;
}

function SecretPanel({ label, value, testId, onDone }: SecretRevealProps) {
  const [copied, setCopied] = useState<string | null>(null);
  const ref = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // it appears after an action: focus moves to it, so screen readers announce it and keyboards start there
  // (a ConfirmDialog that led here closes in a layout effect, before this runs: while a modal dialog is
  // open the page is inert and cannot take focus, and closing it returns focus to its opener)
  useEffect(() => headingRef.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied to the clipboard.');
    } catch {
      const range = document.createRange();
      if (ref.current) range.selectNodeContents(ref.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      setCopied('Copying is blocked here: the secret is selected, press Ctrl+C (⌘C) to copy it.');
    }
  };
  return (
    <div className="secret panel" role="region" aria-label={label}>
      <h2 tabIndex={-1} ref={headingRef}>
        {label}
      </h2>
      <p className="notice">Copy it now: it is shown only once and cannot be recovered.</p>
      <code className="secret-value" data-testid={testId} ref={ref}>
        {value}
      </code>
      <div className="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        {onDone && (
          <button type="button" className="secondary" onClick={onDone}>
            I have stored it
          </button>
        )}
        <span role="status">{copied}</span>
      </div>
    </div>
  );
}

/**
 * A confirmation step in a modal <dialog> (focus is trapped and Escape cancels). `children` says
 * what will happen; `extra` holds inputs such as a reason.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // a layout effect: the dialog opens and closes in the commit that changes `open`, before any passive
  // effect of that commit (a panel it reveals focusing itself) runs; close() returns focus to the opener
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div className="actions">
        <button
          type="button"
          className={props.danger ? 'danger' : undefined}
          onClick={props.onConfirm}
          disabled={props.busy}
        >
          {props.confirmLabel}
        </button>
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Loads once per change of `deps`, ignoring answers that arrive after a newer request. */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- loading starts with the request this effect sends (data fetching is the external system it syncs with)
    setLoading(true);
    load().then(
      (d) => live && (setData(d), setError(null), setLoading(false)),
      (e) => live && (setError(e), setLoading(false)),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** A form action: runs, keeps the error for the message region and field errors, reports busy. */
export function useAction() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { error, busy, run, setError };
}

/** A UTC time to the minute, or to the second with `seconds` (attempts seconds apart must read apart). */
export function formatDateTime(iso: string | null | undefined, empty = '—', seconds = false): string {
  if (!iso) return empty;
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d
        .toISOString()
        .replace('T', ' ')
        .slice(0, seconds ? 19 : 16) + ' UTC';
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A page title that also names the document (the browser tab and screen readers). */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  useEffect(() => {
    document.title = `${title} — fundgate console`;
  }, [title]);
  return <h1>{children}</h1>;
}
