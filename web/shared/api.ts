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
  const res = await fetch(path, {
    method: opts.method ?? 'GET',
    headers,
    body,
    credentials: 'same-origin',
    signal: opts.signal,
  });
  const rateLimit = parseRateLimit(res.headers);
  const text = await res.text();
  const parsed = parseJsonText(text);
  if (!res.ok) {
    const problem: Problem =
      parsed && typeof parsed === 'object'
        ? { ...(parsed as Problem), status: res.status }
        : { status: res.status, detail: text.slice(0, 200) || res.statusText };
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
