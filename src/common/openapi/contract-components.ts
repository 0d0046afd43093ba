import { PROBLEM_CODES } from '../errors/problem';

/** Shared components of the contract: the problem document, the response headers, the security schemes. */
const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ description, schema });

export const HEADERS = {
  'X-Request-Id': header(
    'The request id (the sane incoming X-Request-Id or a UUID); quoted in every problem as requestId.',
  ),
  RateLimit: header('IETF RateLimit header: `"<policy>";r=<remaining>;t=<seconds to reset>`.'),
  'RateLimit-Policy': header('IETF RateLimit-Policy header: `"<policy>";q=<quota>;w=<window seconds>`.'),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'string', pattern: '^[0-9]+$' }),
  'WWW-Authenticate': header('`Bearer` (no key) or `Bearer error="invalid_token"` (a key that is not valid).'),
  'Idempotent-Replayed': header(
    '`true` when the answer is the stored answer of an earlier request with the same Idempotency-Key.',
    { type: 'string', enum: ['true'] },
  ),
  Location: header('Where the created resource (or the job to poll) lives.'),
  ETag: header(
    'Weak validator of this answer (the same whatever the content coding); send it back in If-None-Match to get 304 Not Modified.',
  ),
  'Cache-Control': header(
    '`private, no-store` on live fund data; `private, no-cache` on answers that carry an ETag; `no-store` on calculator answers.',
  ),
  Allow: header('The methods this path accepts.'),
  'Set-Cookie': header('The console session cookie (HttpOnly, SameSite=Strict, Secure over HTTPS).'),
} as const;

export type HeaderName = keyof typeof HEADERS;

export const PROBLEM_DETAILS = {
  type: 'object',
  description:
    'RFC 9457 problem details. `code` is stable and listed in docs/errors.md; `errors` names every failing field.',
  required: ['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', format: 'uri', examples: ['https://fundgate.dev/problems/invalid_parameter'] },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path' },
    code: { type: 'string', enum: Object.keys(PROBLEM_CODES) },
    requestId: { type: 'string' },
    errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
  },
};

export const FIELD_ERROR = {
  type: 'object',
  required: ['field', 'message'],
  additionalProperties: false,
  properties: {
    field: { type: 'string', description: 'The body member, query or path parameter, or header' },
    message: { type: 'string' },
  },
};

export const STATUS_TEXT: Record<number, string> = {
  400: 'invalid_request, invalid_parameter, missing_parameter or window_too_large: the body, a parameter or the URL is not valid (every failing field in `errors`)',
  401: 'unauthenticated (no, invalid, revoked or expired key or session), invalid_credentials or totp_required',
  403: 'insufficient_scope, forbidden (no fund, not a member, refused Origin), csrf_failed or maker_checker_violation',
  404: "not_found: the resource (or the key's fund) does not exist for this caller",
  405: 'method_not_allowed: the path exists with other methods (see Allow)',
  406: 'not_acceptable: Accept does not include application/json',
  409: 'invalid_state, idempotency_in_progress or nav_job_in_progress: the resource is not in a state that allows this',
  410: 'gone: the resource expired',
  413: 'payload_too_large: the body (or a field of it) is over the limit',
  414: 'uri_too_long: a path segment is longer than allowed',
  415: 'unsupported_media_type: the body is not application/json',
  422: 'unprocessable, unbalanced_entry, idempotency_key_reused or range_too_large: valid input the rules refuse',
  429: 'rate_limited: wait Retry-After seconds',
  431: 'headers_too_large: the request headers are over the limit',
  500: 'internal: quote the requestId',
  503: 'unavailable: a dependency (PostgreSQL, Redis) is unreachable; retry after Retry-After',
};

export const TAG_TEXT: Record<string, string> = {
  health: 'Liveness and readiness probes; no authentication.',
  account: 'The calling key or session: who it is, what it may do, what it used.',
  'admin: keys': 'Mint, list and revoke API keys (keys:manage; a console session manages its own keys).',
  'admin: activity': "The request log of the fund's keys.",
  'admin: proposals': 'Maker-checker review: a person other than the proposer approves or rejects.',
  'admin: NAV runs': 'NAV runs as background jobs, their listing and status.',
  'admin: NAV': 'NAV publication.',
  console:
    "The console's own routes: sign-in, sessions, invitations, members, service identities, account security. Cookie + CSRF.",
  calculators: 'Seven keyless calculators; an optional key only raises the daily cap.',
  webhooks: 'Signed event deliveries (Standard Webhooks); see docs/webhooks.md.',
  proposals: 'Propose changes to the books; nothing executes until a reviewer approves.',
  mcp: 'Model Context Protocol servers (JSON-RPC 2.0 over Streamable HTTP, stateless).',
};
