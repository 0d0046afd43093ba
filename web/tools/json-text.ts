/** A JSON value as text: strings verbatim, numbers, booleans and objects as JSON writes them, null and undefined as ''. */
export function jsonText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
