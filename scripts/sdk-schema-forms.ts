import type { DocNode } from '../src/common/openapi/document-node';

/**
 * The service publishes OpenAPI 3.1 (type unions, `anyOf [X, {type: null}]`, `examples`); the SDK
 * generator's type mapping reads the simpler `nullable` form. This turns one into the other, in a copy.
 */

export function withNullableForms<T>(doc: T): T {
  return walk(JSON.parse(JSON.stringify(doc))) as T;
}

function walk(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(walk);
  if (!v || typeof v !== 'object') return v;
  const o: DocNode = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  if (Array.isArray(o.type) && o.type.includes('null')) {
    const rest = o.type.filter((t: string) => t !== 'null');
    o.type = rest.length === 1 ? rest[0] : rest;
    o.nullable = true;
  }
  if (Array.isArray(o.enum) && o.enum.includes(null)) {
    o.enum = o.enum.filter((x: unknown) => x !== null);
    o.nullable = true;
  }
  const alts = o.anyOf ?? o.oneOf;
  if (Array.isArray(alts) && alts.length === 2 && alts.some(isNull)) {
    const key = o.anyOf ? 'anyOf' : 'oneOf';
    const other = alts.find((x: DocNode) => !isNull(x));
    delete o[key];
    return other.$ref ? { ...o, allOf: [other], nullable: true } : { ...o, ...other, nullable: true };
  }
  return o;
}

function isNull(s: DocNode): boolean {
  return s && s.type === 'null' && Object.keys(s).length === 1;
}
