import type { MouseEvent } from 'react';
import { fieldId } from './FieldNotes';
import type { FieldSpec } from './schema';

/** The key field's id (KeyField): a refused key is listed like a form field. */
export const KEY_FIELD_ID = 'calc-key';

/** What the person sees for a field: its label and unit, as on screen. */
export const shownLabel = (f: FieldSpec) => (f.unit ? `${f.label} (${f.unit})` : f.label);

function focusField(e: MouseEvent<HTMLAnchorElement>, id: string) {
  const el = document.getElementById(id);
  if (!el) return;
  e.preventDefault();
  el.closest('details')?.setAttribute('open', ''); // the key field folds away
  el.focus();
  el.scrollIntoView({ block: 'center' });
}

/**
 * The error box: a sentence, then one link per field to fix (its on-screen label and the
 * problem), each moving the focus to that field wherever it sits on the page.
 */
export function ErrorSummary({
  message,
  fieldErrors,
  keyError,
  fields,
}: {
  message: string;
  fieldErrors: Record<string, string>;
  keyError: string | null;
  fields: FieldSpec[];
}) {
  const items = fields
    .filter((f) => fieldErrors[f.name])
    .map((f) => ({ id: fieldId(f.name), label: shownLabel(f), problem: fieldErrors[f.name] }));
  const known = new Set(fields.map((f) => f.name));
  // an error on something that is not a form field (a rule across fields): named, without a link
  const others = Object.entries(fieldErrors).filter(([name]) => !known.has(name));
  if (keyError) items.push({ id: KEY_FIELD_ID, label: 'Calculator key', problem: keyError });
  return (
    <>
      <p className="error-message">{message}</p>
      {items.length + others.length > 0 && (
        <ul className="error-list">
          {others.map(([name, problem]) => (
            <li key={name}>
              {name}: {problem}
            </li>
          ))}
          {items.map((item) => (
            <li key={item.id}>
              <a href={`#${item.id}`} onClick={(e) => focusField(e, item.id)}>
                {item.label}
              </a>
              : {item.problem}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
