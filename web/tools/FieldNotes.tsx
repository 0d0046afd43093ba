import type { ReactNode } from 'react';
import type { FieldSpec } from './schema';

export interface FieldProps {
  field: FieldSpec;
  value: string | boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
  onInputMethod: (method: 'upload' | 'manual') => void;
}

export const fieldId = (name: string) => `f-${name}`;

/** Help and error lines under a control; the control points at them with aria-describedby. */
export function FieldNotes({ field, error, after }: { field: FieldSpec; error?: string; after?: ReactNode }) {
  return (
    <>
      <div className="help" id={`${fieldId(field.name)}-help`}>
        {field.help}
      </div>
      {after}
      {error && (
        <div className="field-error" id={`${fieldId(field.name)}-error`} data-testid={`field-error-${field.name}`}>
          {error}
        </div>
      )}
    </>
  );
}

/** The ids a control names in aria-describedby: its help, any extra notes (e.g. its bounds), its error. */
export function describedBy(field: FieldSpec, error?: string, extra: string[] = []): string {
  const id = fieldId(field.name);
  return [`${id}-help`, ...extra, ...(error ? [`${id}-error`] : [])].join(' ');
}
