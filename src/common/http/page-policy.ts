/**
 * The policy every HTML page of ours carries (the web apps, the API docs): only same-origin
 * scripts, inline styles for the charts' SVG and Swagger UI, nothing may frame it, no referrer
 * leaves the site. The OAuth refusal page sets a stricter one of its own.
 */
export const PAGE_POLICY: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};
