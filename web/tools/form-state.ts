import { jsonText } from './json-text';
import type { FieldSpec } from './schema';

/**
 * Form values as the person typed them (numbers stay text until sent, so a typo reaches the
 * calculator and comes back as its own field error instead of vanishing in the browser).
 */
export type FormValues = Record<string, string | boolean>;

/** The marker that makes a link compute on open. */
export const RUN_PARAM = 'calc';
/** Longest link we write; a longer CSV stays out of it (the page says so). */
export const MAX_URL_CHARS = 8000;

export function defaultValue(f: FieldSpec): string | boolean {
  if (f.kind === 'boolean') return f.default === true;
  return jsonText(f.default);
}

export function defaultValues(fields: FieldSpec[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, defaultValue(f)]));
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The JSON body: numbers parsed when they are numbers, anything else sent as typed. */
export function toBody(fields: FieldSpec[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'boolean') body[f.name] = v === true;
    else if (f.kind === 'number' || f.kind === 'integer') {
      const text = String(v ?? '').trim();
      if (text === '' && f.nullable) body[f.name] = null;
      // 1e999 is Infinity, which JSON would send as null ("none"): sent as typed, the calculator names the field
      else body[f.name] = NUMBER.test(text) && Number.isFinite(Number(text)) ? Number(text) : text;
    } else body[f.name] = String(v ?? '');
  }
  return body;
}

/** The inputs that differ from the defaults, plus the run marker. */
export function toSearch(fields: FieldSpec[], values: FormValues): { search: URLSearchParams; omitted: string[] } {
  const search = new URLSearchParams();
  const omitted: string[] = [];
  for (const f of fields) {
    const v = values[f.name];
    if (v === defaultValue(f)) continue;
    search.set(f.name, typeof v === 'boolean' ? String(v) : v);
  }
  search.set(RUN_PARAM, '1');
  for (const f of fields) {
    if ((f.kind === 'csv' || f.kind === 'text') && search.toString().length > MAX_URL_CHARS && search.has(f.name)) {
      search.delete(f.name);
      omitted.push(f.name);
    }
  }
  return { search, omitted };
}

/** Form values from a link: the defaults, overridden by the parameters present. */
export function fromSearch(fields: FieldSpec[], search: URLSearchParams): FormValues {
  const values = defaultValues(fields);
  for (const f of fields) {
    const v = search.get(f.name);
    if (v === null) continue;
    values[f.name] = f.kind === 'boolean' ? v === 'true' : v;
  }
  return values;
}
