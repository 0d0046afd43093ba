import { createHash } from 'node:crypto';

/**
 * Deterministic UUID (version 5 layout, SHA-1) from a natural key, so that the same raw events
 * produce the same ids — the demo fund answers identically after every seed.
 */
export function uuidFromKey(key: string): string {
  const h = createHash('sha1').update(key).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function fundIdForSlug(slug: string): string {
  return uuidFromKey(`fundgate:fund:${slug}`);
}

/** Ids of a fund's reference data, derived from its natural keys. */
export const fundScopedId = (fundId: string, kind: string, naturalKey: string) =>
  uuidFromKey(`${fundId}:${kind}:${naturalKey}`);
