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
