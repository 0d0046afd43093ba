import { type CallResult, parseJson, type TestApp } from '../utils/app';

type Res = CallResult;

/** An RFC 9457 problem with the given status and code, its request id echoed, no stack. */
export function expectProblem(res: Res, status: number, code: string): void {
  expect({ status: res.status, body: res.json?.code }).toEqual({ status, body: code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({ status, code, type: `https://fundgate.dev/problems/${code}` });
  expect(res.body).not.toMatch(/at .*\.[jt]s:\d+/);
}

/** A 400 naming `field` among its field errors. */
export function expectFieldError(res: Res, field: string): void {
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
}

/** `levels` nested arrays around a value. */
export const deepArrays = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

/**
 * A request through the real Fastify instance without test/utils' OpenAPI contract check: for the
 * MCP servers, whose JSON-RPC answers the hardening tests judge on their own terms.
 */
export async function rawCall(
  app: TestApp,
  url: string,
  opts: { key?: string; body: unknown; headers?: Record<string, string> },
): Promise<Res> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
    ...(opts.headers ?? {}),
  };
  const payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const res = await app
    .getHttpAdapter()
    .getInstance()
    .inject({ method: 'POST', url, headers, payload, remoteAddress: '127.0.0.1' });
  return { status: res.statusCode, headers: res.headers, body: res.body, json: parseJson(res.body) };
}

/** A balanced journal-entry proposal on the books-fixture chart (5500 debit, 5600 credit); `lines` replaces its lines. */
export function journalEntry(lines: Record<string, unknown>[] = [], extra: Record<string, unknown> = {}) {
  const balanced = [
    { accountCode: '5500', debit: '1.00' },
    { accountCode: '5600', credit: '1.00' },
  ];
  return {
    entryDate: '2025-03-31',
    description: 'Reclassify legal fees',
    lines: lines.length ? lines : balanced,
    ...extra,
  };
}
