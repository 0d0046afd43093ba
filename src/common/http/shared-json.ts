/**
 * The JSON text of an answer object, produced once per object. Answers served from a cache are the
 * same object on every request (the cache's value, then the route's memoized redaction of it), so
 * REST (as Fastify's reply serializer) and the MCP tool results send the same bytes without
 * serializing again. Entries die with their object: an answer built for one request costs one
 * WeakMap entry and nothing more. Answer objects are never mutated once returned.
 */
const texts = new WeakMap<object, string>();

export function sharedJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** Memoizes `derive(value)` per object (a cached answer's derived text is derived once). */
export function memoPerObject<T>(derive: (value: unknown) => T): (value: unknown) => T {
  const memo = new WeakMap<object, T>();
  return (value) => {
    if (typeof value !== 'object' || value === null) return derive(value);
    let derived = memo.get(value);
    if (derived === undefined) {
      derived = derive(value);
      memo.set(value, derived);
    }
    return derived;
  };
}
