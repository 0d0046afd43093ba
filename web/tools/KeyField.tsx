import { useEffect, useState } from 'react';
import { KEY_FIELD_ID } from './ErrorSummary';
import { loadCalcCaps } from './schema';

const STORAGE = 'fundgate.tools.calculatorKey';

/** The optional key (read once per tab from sessionStorage: it never leaves this browser tab otherwise). */
export function initialKey(): string {
  try {
    return sessionStorage.getItem(STORAGE) ?? '';
  } catch {
    return '';
  }
}

/**
 * The service's default calc-daily caps (src/config/config.ts DEFAULT_RATE_LIMITS), said as defaults
 * until the API document gives this deployment's (`x-rate-limits`, from RATE_LIMITS); the note under
 * Calculate always shows the cap that applied to the last call.
 */
const DEFAULT_CAPS = { free: 500, developer: 10_000, platform: 100_000 };

/** This deployment's caps once its API document has loaded; the defaults (flagged) until then. */
function useCalcCaps(): { caps: typeof DEFAULT_CAPS; published: boolean } {
  const [published, setPublished] = useState<typeof DEFAULT_CAPS | null>(null);
  useEffect(() => {
    let live = true;
    loadCalcCaps()
      .then((caps) => live && setPublished(caps))
      .catch(() => undefined); // the form says why the document could not load
    return () => {
      live = false;
    };
  }, []);
  return { caps: published ?? DEFAULT_CAPS, published: published !== null };
}
const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * A developer- or platform-plan calculator key raises the daily cap (a free-plan key does not). Keys are minted in the console and shown once (only
 * their hash is stored), so the person pastes theirs here; it is kept for this tab only and sent
 * as a bearer token with each calculation.
 */
export function KeyField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (key: string) => void;
  /** Why the last call refused the key (401), or null. */
  error: string | null;
}) {
  const [open, setOpen] = useState(value !== '');
  const { caps, published } = useCalcCaps();
  const [shownError, setShownError] = useState(error);
  if (error !== shownError) {
    setShownError(error);
    if (error) setOpen(true); // a refused key is never folded away (state adjusted while rendering)
  }
  const set = (key: string) => {
    onChange(key);
    try {
      if (key) sessionStorage.setItem(STORAGE, key);
      else sessionStorage.removeItem(STORAGE);
    } catch {
      /* storage refused: the key lives in memory only */
    }
  };
  return (
    <details
      className={error ? 'key-field invalid' : 'key-field'}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        Developer or platform plan? Use your calculator key for a higher daily cap
        {error && <span className="field-error"> (key refused)</span>}
      </summary>
      <div className="field">
        <label htmlFor={KEY_FIELD_ID}>Calculator key (optional)</label>
        <input
          id={KEY_FIELD_ID}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          placeholder="svc_dk_…"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'calc-key-help calc-key-error' : 'calc-key-help'}
          onChange={(e) => set(e.target.value.trim())}
        />
        <div className="help" id="calc-key-help">
          Without a key the cap is {fmt(caps.free)} calculations a day per address. A developer-plan key raises it to{' '}
          {fmt(caps.developer)} a day and a platform-plan key to {fmt(caps.platform)}
          {published ? '' : ' (the service’s defaults)'}; a free-plan key keeps {fmt(caps.free)}, counted per key. Mint
          a key in the <a href="/console">console</a> (signed in, “No fund: my calculator keys”). It is kept in this tab
          only and sent with each calculation.
        </div>
        {error && (
          <div className="field-error" id="calc-key-error" data-testid="key-error">
            Calculator key {error}
          </div>
        )}
      </div>
    </details>
  );
}
