/**
 * Answers served from a cache are the same object on every request. Marked as shared by the cache
 * (`markShared`), such an answer is redacted once per route (the redaction of a shared answer is
 * shared too) and serialized once: REST (as Fastify's reply serializer) and the MCP tool results
 * send the same bytes without serializing again. Answers built for one request are not marked and
 * cost a WeakSet lookup, nothing more. Answer objects are never mutated once returned.
 */
const sharedAnswers = new WeakSet<object>();
const texts = new WeakMap<object, string>();

export function markShared<T>(value: T): T {
  if (typeof value === 'object' && value !== null) sharedAnswers.add(value);
  return value;
}

export function isShared(value: unknown): value is object {
  return typeof value === 'object' && value !== null && sharedAnswers.has(value);
}

/** The JSON text of an answer; produced once for a shared answer. */
export function sharedJson(value: unknown): string {
  if (!isShared(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** `derive(value)`, produced once per shared answer (a cached answer's derived text is derived once). */
export function memoPerObject<T>(derive: (value: unknown) => T): (value: unknown) => T {
  const memo = new WeakMap<object, T>();
  return (value) => {
    if (!isShared(value)) return derive(value);
    let derived = memo.get(value);
    if (derived === undefined) {
      derived = derive(value);
      memo.set(value, derived);
    }
    return derived;
  };
}
