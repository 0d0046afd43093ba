/**
 * Turns an OpenAPI 3.0 schema (as @nestjs/swagger generates it from our DTOs) into a self-contained
 * JSON Schema for MCP: `$ref`s inlined, `nullable` expressed as a `null` type, OpenAPI-only keywords
 * and our private formats dropped.
 */
type Schema = Record<string, unknown>;
const STANDARD_FORMATS = new Set(['date', 'date-time', 'uuid', 'email', 'uri', 'int32', 'int64', 'double', 'float']);
const DROP = new Set([
  'example',
  'examples',
  'nullable',
  'xml',
  'externalDocs',
  'discriminator',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

export function toJsonSchema(schema: Schema, components: Record<string, Schema>, depth = 0): Schema {
  if (depth > 12) return {};
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    const target = components[name];
    if (!target) return {};
    const inlined = toJsonSchema(target, components, depth + 1);
    return schema.nullable ? { anyOf: [inlined, { type: 'null' }] } : inlined;
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROP.has(key) || key.startsWith('x-')) continue;
    if (key === 'format' && !STANDARD_FORMATS.has(String(value))) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, toJsonSchema(v, components, depth + 1)]),
      );
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = toJsonSchema(value as Schema, components, depth + 1);
    } else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map((v) => toJsonSchema(v as Schema, components, depth + 1));
    } else {
      out[key] = value;
    }
  }
  // The draft-04 boolean form (OpenAPI 3.0) is not JSON Schema 2020-12: the bound itself is exclusive.
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ]) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] === true && typeof out[inclusive] === 'number') {
      out[exclusive] = out[inclusive];
      delete out[inclusive];
    } else delete out[exclusive];
  }
  if (schema.nullable) {
    // A composition (swagger writes a nullable DTO member as { type: object, allOf: [$ref] }) must
    // admit null as a whole; a plain type just gains 'null'.
    if (out.allOf || out.anyOf || out.oneOf) return { anyOf: [out, { type: 'null' }] };
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  }
  return out;
}

/** A field a tool's arguments fail, as the validation pipe names one. */
export interface ArgumentError {
  field: string;
  message: string;
}

const JSON_TYPES: Record<string, { is: (v: unknown) => boolean; name: string }> = {
  string: { is: (v) => typeof v === 'string', name: 'a string' },
  integer: { is: (v) => Number.isInteger(v), name: 'an integer number' },
  number: { is: (v) => typeof v === 'number' && Number.isFinite(v), name: 'a number' },
  boolean: { is: (v) => typeof v === 'boolean', name: 'a boolean value' },
};

/**
 * The JSON type (and enum) check of a tool's arguments against its input schema, built once per tool.
 * A read tool's arguments become query text for the route's DTO, which reads every value from a
 * string: without this, `true` passed as a symbol, `0.99` as the enum "0.99" and `"5"` as an integer.
 * Only what the text loses is checked here (JSON type, integer-ness, enum membership); bounds, formats
 * and unknown fields stay with the DTO. Absent and null arguments are left to the DTO, as a body's are
 * (`@IsOptional` takes null as absent). Null when the schema declares no typed property (no work per call).
 */
export function argumentTypeCheck(input: Schema): ((args: Record<string, unknown>) => ArgumentError[]) | null {
  const checks = Object.entries((input.properties ?? {}) as Record<string, Schema>).flatMap(([field, schema]) => {
    const check = valueCheck(schema);
    return check ? [{ field, check }] : [];
  });
  if (checks.length === 0) return null;
  return (args) => {
    const errors: ArgumentError[] = [];
    for (const { field, check } of checks) {
      const value = args[field];
      const message = value === undefined || value === null ? null : check(value);
      if (message) errors.push({ field, message });
    }
    return errors;
  };
}

function valueCheck(schema: Schema): ((value: unknown) => string | null) | null {
  const declared = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  const types = declared.flatMap((t) => (typeof t === 'string' && JSON_TYPES[t] ? [JSON_TYPES[t]] : []));
  const allowed: unknown[] | null = Array.isArray(schema.enum) ? schema.enum.filter((v) => v !== null) : null;
  if (types.length === 0 && !allowed) return null;
  const oneOf = allowed ? `: one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : '';
  const typeMessage = `must be ${types.map((t) => t.name).join(' or ')}${oneOf}`;
  const enumMessage = allowed && `must be one of the following values: ${allowed.join(', ')}`;
  return (value) => {
    if (types.length > 0 && !types.some((t) => t.is(value))) return typeMessage;
    return allowed && !allowed.includes(value) ? enumMessage : null;
  };
}
