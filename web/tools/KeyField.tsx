import { useState } from 'react';

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
 * A calculator key raises the daily cap. Keys are minted in the console and shown once (only
 * their hash is stored), so the person pastes theirs here; it is kept for this tab only and sent
 * as a bearer token with each calculation.
 */
export function KeyField({ value, onChange }: { value: string; onChange: (key: string) => void }) {
  const [open] = useState(value !== '');
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
    <details className="key-field" open={open}>
      <summary>Have a calculator key? Raise the daily cap</summary>
      <div className="field">
        <label htmlFor="calc-key">Calculator key (optional)</label>
        <input
          id="calc-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          placeholder="svc_dk_…"
          aria-describedby="calc-key-help"
          onChange={(e) => set(e.target.value.trim())}
        />
        <div className="help" id="calc-key-help">
          Mint one in the <a href="/console">console</a> (signed in, “No fund: my calculator keys”). Kept in this tab
          only and sent with each calculation; a key that is not valid is refused (401).
        </div>
      </div>
    </details>
  );
}
