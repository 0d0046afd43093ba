import fc from 'fast-check';
import type { DocNode } from '../../src/common/openapi/document-node';

/** A JSON Schema / OpenAPI schema node, loosely typed. */
export type Schema = DocNode;

const DATES = [
  '2025-03-31',
  '2025-03-30',
  '2024-01-01',
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  '2025-13-01',
  '20250331',
  '2025-3-1',
];

/** Values that broke (or could break) something below validation: NUL, lone surrogates, huge and odd numbers, SQL-ish text. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '',
    ' ',
    '%00',
    '../../etc/passwd',
    "' OR 1=1 --",
    '1e999',
    '-0',
    'NaN',
    'Infinity',
    '99999999999999999999999999.99',
    '-1',
    '0x10',
    '١٢٣',
    '\u202e',
    '🙂'.repeat(50),
    'null',
    'undefined',
    '[]',
    '{}',
    'true',
    'a'.repeat(5000),
    '2025-03-31T00:00:00Z',
    '00000000-0000-0000-0000-000000000000',
    ...DATES,
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1 + 0.2, -0, 1e-320),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constant([]),
  fc.constant({}),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

function deref(schema: Schema, components: Record<string, Schema>): Schema {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 10; i++) s = components[String(s.$ref).split('/').pop()!] ?? {};
  if (s?.allOf?.length === 1) return deref(s.allOf[0], components);
  return s ?? {};
}

/** Mostly well-typed values for the schema (so validation passes often and the code below runs), with hostile ones mixed in. */
export function fromSchema(schema: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(schema, components);
  const typed = typedFromSchema(s, components, depth);
  return depth > 4 ? typed : fc.oneof({ weight: 5, arbitrary: typed }, { weight: 1, arbitrary: hostileValue });
}

function typedFromSchema(s: Schema, components: Record<string, Schema>, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string':
      return stringFor(s);
    case 'integer':
      return fc.oneof(fc.integer({ min: s.minimum ?? -5, max: Math.min(s.maximum ?? 1000, 1e9) }), fc.integer());
    case 'number':
      return fc.oneof(
        fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true }),
        fc.integer({ min: -10, max: 100 }),
      );
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fromSchema(s.items ?? {}, components, depth + 1), { maxLength: Math.min(s.maxItems ?? 4, 4) });
    case 'object':
    default: {
      const props: Record<string, Schema> = s.properties ?? {};
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 2 });
      const record = Object.fromEntries(keys.map((k) => [k, fromSchema(props[k], components, depth + 1)]));
      return fc.record(record, { requiredKeys: (s.required ?? []).filter((k: string) => keys.includes(k)) });
    }
  }
}

function stringFor(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'uuid') return fc.oneof(fc.uuid(), fc.constant('00000000-0000-4000-8000-000000000000'));
  if (
    s.format === 'date' ||
    /date/i.test(String(s.description ?? '')) ||
    /^\d{4}-\d{2}-\d{2}$/.test(String(s.example ?? ''))
  ) {
    return fc.oneof(
      fc.constantFrom(...DATES),
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
  }
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (/^-?\d+(\.\d+)?$/.test(String(s.example ?? ''))) {
    return fc.oneof(
      fc.constant(String(s.example)),
      fc.integer({ min: 0, max: 10_000_000 }).map((n) => (n / 100).toFixed(2)),
      fc.constantFrom('0', '0.5', '1', '-1.00'),
    );
  }
  if (typeof s.example === 'string')
    return fc.oneof(fc.constant(s.example), fc.string({ maxLength: Math.min(s.maxLength ?? 30, 30) }));
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 30) });
}

/** Percent-encodes any JS string byte by byte (encodeURIComponent throws on lone surrogates). */
export function encodeAny(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');
}

/** Raw bodies the JSON parser must survive. */
export const rawBody = fc.constantFrom(
  '',
  '{',
  'null',
  '[]',
  '42',
  '"x"',
  '{"a":' + '['.repeat(3000) + ']'.repeat(3000) + '}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"a":1e999}',
  '\u0000',
  '{"a":1,"a":2}',
);
