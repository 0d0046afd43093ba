/**
 * Domain errors carry a code; `problemStatus` is the one exhaustive map from code to HTTP status.
 * The HTTP filter turns a ProblemError into RFC 9457 problem+json; the MCP layer into JSON-RPC errors.
 */
export const PROBLEM_CODES = {
  invalid_request: 400,
  missing_parameter: 400,
  invalid_parameter: 400,
  window_too_large: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  totp_required: 401,
  insufficient_scope: 403,
  csrf_failed: 403,
  maker_checker_violation: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  idempotency_in_progress: 409,
  invalid_state: 409,
  nav_job_in_progress: 409,
  gone: 410,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  unbalanced_entry: 422,
  unprocessable: 422,
  range_too_large: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export const PROBLEM_TITLES: Record<ProblemCode, string> = {
  invalid_request: 'The request is not valid',
  missing_parameter: 'A required parameter is missing',
  invalid_parameter: 'A parameter is not valid',
  window_too_large: 'The date window is too large',
  unauthenticated: 'Authentication required',
  invalid_credentials: 'The email or password is not correct',
  totp_required: 'A one-time code from the authenticator app is required',
  insufficient_scope: 'The key lacks a required scope',
  csrf_failed: 'The request failed the cross-site request forgery check',
  maker_checker_violation: 'The approver must be another person who may review this fund',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  not_acceptable: 'Not acceptable',
  request_timeout: 'The request was not received in time',
  idempotency_in_progress: 'A request with this Idempotency-Key is still in progress',
  invalid_state: 'The resource is not in a state that allows this',
  nav_job_in_progress: 'A NAV run job for this fund is already queued or running',
  gone: 'The resource is no longer available',
  payload_too_large: 'The request body is too large',
  uri_too_long: 'The request URL or one of its path segments is too long',
  unsupported_media_type: 'Unsupported media type',
  idempotency_key_reused: 'The Idempotency-Key was used with a different request',
  unbalanced_entry: 'The journal entry does not balance',
  unprocessable: 'The request cannot be processed',
  range_too_large: 'The request covers more dates than one call may',
  rate_limited: 'Rate limit exceeded',
  headers_too_large: 'The request headers are too large',
  internal: 'Internal error',
  unavailable: 'Service unavailable',
};

export interface FieldError {
  field: string;
  message: string;
}

export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.status = PROBLEM_CODES[code];
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  requestId: string;
  errors?: FieldError[];
}

export const PROBLEM_TYPE_BASE = 'https://fundgate.dev/problems/';

export function problemBody(err: ProblemError, instance: string, requestId: string): ProblemBody {
  const body: ProblemBody = {
    type: PROBLEM_TYPE_BASE + err.code,
    title: PROBLEM_TITLES[err.code],
    status: err.status,
    detail: err.detail,
    instance,
    code: err.code,
    requestId,
  };
  if (err.errors && err.errors.length > 0) body.errors = err.errors;
  return body;
}

/** Shorthands used across the code base. */
export const invalidParameter = (field: string, message: string) =>
  new ProblemError('invalid_parameter', `${field}: ${message}`, [{ field, message }]);
export const notFound = (what: string) => new ProblemError('not_found', `${what} was not found`);
export const unprocessable = (detail: string, errors?: FieldError[]) =>
  new ProblemError('unprocessable', detail, errors);
