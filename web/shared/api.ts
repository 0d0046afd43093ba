/**
 * The one fetch wrapper of the web pages: JSON in, JSON out, RFC 9457 problems turned into an
 * ApiError that carries the field errors (so forms can show them next to their fields) and the
 * rate-limit headers (so pages can say what is left of a cap).
 */
export interface FieldError {
  field: string;
  message: string;
}

export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: FieldError[];
}

export interface RateLimitInfo {
  limit: number | null;
  remaining: number | null;
  /** Seconds until the window resets. */
  reset: number | null;
  policy: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly problem: Problem,
    readonly rateLimit: RateLimitInfo,
    readonly retryAfter: number | null,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
  }

  get status(): number {
    return this.problem.status;
  }

  /** Field errors keyed by field name (several messages joined). */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.problem.errors ?? [])
      out[e.field] = out[e.field] ? `${out[e.field]}; ${e.message}` : e.message;
    return out;
  }
}

/**
 * The request never got an answer: the network is down, the service is unreachable or the
 * browser refused the call. `message` is a sentence for people; `cause` keeps the browser's own
 * error (e.g. TypeError "Failed to fetch"). An abort still throws the browser's AbortError.
 */
export class NetworkError extends Error {
  constructor(readonly cause: unknown) {
    super('The service is unreachable: check your connection and try again.');
    this.name = 'NetworkError';
  }
}

/**
 * The sentence of a failed response whose body is not a problem document (an HTML page from a
 * proxy, a gateway timeout, an empty body): the status in words, never the body itself.
 */
export function statusSentence(status: number, statusText = ''): string {
  const code = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  if (status === 502 || status === 503 || status === 504)
    return `The service is unavailable right now (${code}): try again in a moment.`;
  if (status >= 500) return `The service had a problem (${code}): try again in a moment.`;
  if (status === 413) return `The request is too large for the service (${code}).`;
  return `The service refused the request (${code}).`;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  rateLimit: RateLimitInfo;
  headers: Headers;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function num(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Structured-field parameters of one item: `"calc-daily";r=499;t=3600` → {name, r: '499', t: '3600'}. */
function sfItem(value: string | null): { name: string | null; params: Record<string, string> } {
  if (!value) return { name: null, params: {} };
  const [first, ...rest] = value.split(',')[0].split(';');
  const params: Record<string, string> = {};
  for (const piece of rest) {
    const [k, v] = piece.trim().split('=');
    if (k && v !== undefined) params[k] = v;
  }
  return { name: first.trim().replace(/^"|"$/g, ''), params };
}

/**
 * Reads the IETF rate-limit headers the service sends:
 * `RateLimit-Policy: "calc-daily";q=500;w=86400` and `RateLimit: "calc-daily";r=499;t=3600`.
 */
export function parseRateLimit(headers: Headers): RateLimitInfo {
  const policy = sfItem(headers.get('ratelimit-policy'));
  const current = sfItem(headers.get('ratelimit'));
  return {
    limit: num(policy.params.q),
    remaining: num(current.params.r),
    reset: num(current.params.t),
    policy: current.name ?? policy.name,
  };
}

/** A response body as JSON; undefined when empty or not JSON. */
function parseJsonText(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new NetworkError(err);
  }
  const rateLimit = parseRateLimit(res.headers);
  const text = await res.text();
  const parsed = parseJsonText(text);
  if (!res.ok) {
    // a body that is not a problem document (a proxy's HTML page, an empty 502) is never shown
    const problem: Problem =
      parsed && typeof parsed === 'object' && !Array.isArray(parsed)
        ? { ...(parsed as Problem), status: res.status }
        : {
            status: res.status,
            title: res.statusText || undefined,
            detail: statusSentence(res.status, res.statusText),
          };
    throw new ApiError(problem, rateLimit, num(res.headers.get('retry-after') ?? undefined));
  }
  return { status: res.status, body: parsed as T, rateLimit, headers: res.headers };
}

/** A human sentence for any error a page shows. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 429) {
      const wait = err.retryAfter ?? err.rateLimit.reset;
      return `Rate limit reached${wait !== null ? `: try again in ${formatDuration(wait)}` : ''}. ${err.problem.detail ?? ''}`.trim();
    }
    return err.problem.detail ?? err.problem.title ?? `Request failed (HTTP ${err.status})`;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60; // rounded once, so never "7 h 60 min"
  return m ? `${h} h ${m} min` : `${h} h`;
}
