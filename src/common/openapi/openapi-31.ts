/**
 * Rewrites the schemas @nestjs/swagger generates (OpenAPI 3.0 forms) into OpenAPI 3.1 / JSON Schema
 * 2020-12 forms, in place: `nullable` becomes a type union (or `anyOf [..., {type: null}]` around a
 * composition or `$ref`), the draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers,
 * `example` on a schema becomes `examples: [..]`. Validators that follow 3.1 then accept a null
 * `decidedBy` and every bound means what it says.
 */
type Schema = Record<string, unknown>;

const NESTED_MAPS = ['properties', 'patternProperties', '$defs'];
const NESTED_ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'];
const NESTED_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

export function toSchema31(input: Schema): Schema {
  const s: Schema = { ...input };
  for (const key of NESTED_MAPS) {
    if (isObject(s[key]))
      s[key] = Object.fromEntries(Object.entries(s[key] as Record<string, Schema>).map(([k, v]) => [k, toSchema31(v)]));
  }
  for (const key of NESTED_ONE) if (isObject(s[key])) s[key] = toSchema31(s[key]);
  for (const key of NESTED_LISTS) if (Array.isArray(s[key])) s[key] = (s[key] as Schema[]).map(toSchema31);
  bounds(s, 'exclusiveMinimum', 'minimum');
  bounds(s, 'exclusiveMaximum', 'maximum');
  if ('example' in s) {
    s.examples = [s.example];
    delete s.example;
  }
  const nullable = s.nullable === true;
  delete s.nullable;
  return nullable ? admitNull(s) : s;
}

function bounds(s: Schema, exclusive: string, inclusive: string): void {
  if (s[exclusive] === true && typeof s[inclusive] === 'number') {
    s[exclusive] = s[inclusive];
    delete s[inclusive];
  } else if (typeof s[exclusive] === 'boolean') {
    delete s[exclusive];
  }
}

function admitNull(s: Schema): Schema {
  if (s.$ref || s.allOf || s.anyOf || s.oneOf) {
    // swagger writes a nullable DTO member as { type: object, allOf: [$ref] }: the object type goes
    // with the composition, and the whole admits null.
    const { description, ...rest } = s;
    if (
      Array.isArray(rest.allOf) &&
      rest.allOf.length === 1 &&
      rest.type === 'object' &&
      Object.keys(rest).length === 2
    ) {
      return { ...(description ? { description } : {}), anyOf: [rest.allOf[0] as Schema, { type: 'null' }] };
    }
    return { ...(description ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  if (typeof s.type === 'string') s.type = [s.type, 'null'];
  else if (Array.isArray(s.type) && !s.type.includes('null')) s.type = [...s.type, 'null'];
  if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
  return s;
}

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
