import type { FieldSpec } from './schema';
import { CsvField, TextBlockField } from './CsvField';
import { describedBy, fieldId, FieldNotes, type FieldProps } from './FieldNotes';

/**
 * Bounds the document's minimum and maximum do not tell: the fee calculator's horizon must cover
 * one whole period (its cross-field rule, FeeCalculatorRequest.horizonYears) and is rounded to whole periods.
 */
const BOUNDS: Record<string, string> = {
  horizonYears:
    'at least 0.5 years with annual crystallization (0.125 with quarterly), at most 100; rounded to whole periods (2.6 years annual computes 3)',
};

function bounds(f: FieldSpec): string | null {
  if (BOUNDS[f.name]) return BOUNDS[f.name];
  if (f.min === null && f.max === null) return null;
  const lower = f.min === null ? null : f.exclusiveMin ? `above ${f.min}` : `at least ${f.min}`;
  // the money ceiling (1e15) only catches typos: not worth a line of help
  const parts = [lower, f.max !== null && f.max < 1e15 ? `at most ${f.max}` : null].filter(Boolean);
  return parts.join(', ');
}

function NumberInput({ field, value, error, onChange }: FieldProps) {
  const id = fieldId(field.name);
  const allowed = bounds(field);
  return (
    <div className="field">
      <label htmlFor={id}>
        {field.label}
        {field.unit && <span className="unit"> ({field.unit})</span>}
      </label>
      <input
        id={id}
        name={field.name}
        type="text"
        inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
        autoComplete="off"
        value={String(value)}
        placeholder={field.nullable ? 'none' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(field, error, allowed ? [`${id}-bounds`] : [])}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldNotes
        field={field}
        error={error}
        after={
          allowed && (
            <div className="help" id={`${id}-bounds`}>
              Allowed: {allowed}
              {field.nullable ? '; empty for none' : ''}.
            </div>
          )
        }
      />
    </div>
  );
}

function CheckboxInput({ field, value, error, onChange }: FieldProps) {
  const id = fieldId(field.name);
  return (
    <div className="field">
      <label className="checkbox" htmlFor={id}>
        <input
          id={id}
          name={field.name}
          type="checkbox"
          checked={value === true}
          aria-describedby={describedBy(field, error)}
          onChange={(e) => onChange(e.target.checked)}
        />
        {field.label}
      </label>
      <FieldNotes field={field} error={error} />
    </div>
  );
}

function SelectInput({ field, value, error, onChange }: FieldProps) {
  const id = fieldId(field.name);
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      <select
        id={id}
        name={field.name}
        value={String(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(field, error)}
        onChange={(e) => onChange(e.target.value)}
      >
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <FieldNotes field={field} error={error} />
    </div>
  );
}

function DateInput({ field, value, error, onChange }: FieldProps) {
  const id = fieldId(field.name);
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      <input
        id={id}
        name={field.name}
        type="date"
        value={String(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(field, error)}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldNotes field={field} error={error} />
    </div>
  );
}

/** One control per body field, by kind. `inputMethod` has none: the upload and the table set it. */
export function Field(props: FieldProps) {
  switch (props.field.kind) {
    case 'number':
    case 'integer':
      return <NumberInput {...props} />;
    case 'boolean':
      return <CheckboxInput {...props} />;
    case 'enum':
      return <SelectInput {...props} />;
    case 'date':
      return <DateInput {...props} />;
    case 'csv':
      return <CsvField {...props} />;
    case 'text':
      return <TextBlockField {...props} />;
    default:
      return null;
  }
}
