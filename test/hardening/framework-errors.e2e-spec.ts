import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { bootApp, call, type ResponseJson, type TestApp } from '../utils/app';
import { expectProblem } from './helpers';

/** Sends raw bytes on a socket and returns the whole answer (the server closes after an error). */
function rawRequest(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (c) => {
      answer += c.toString('utf8');
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', (err) => (answer ? resolve(answer) : reject(err)));
    socket.write(bytes);
  });
}

function parseRaw(answer: string): { status: number; contentType: string; json: ResponseJson } {
  const [head, body] = answer.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const contentType = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
  return { status, contentType, json: JSON.parse(body) };
}

/** Errors raised below the app (Fastify's router and body parsing, Node's HTTP parser) are problem+json. */
describe('framework-level errors are problem+json (e2e)', () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    app = await bootApp({ bodyLimitBytes: 4096 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('431: headers larger than Node allows', async () => {
    const answer = parseRaw(
      await rawRequest(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`),
    );
    expect(answer.status).toBe(431);
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    expect(answer.json).toMatchObject({ status: 431, code: 'headers_too_large' });
  });

  it('400: a request that is not HTTP ("Client Error")', async () => {
    const answer = parseRaw(await rawRequest(port, 'GARBAGE \x01\x02\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    expect(answer.json).toMatchObject({
      status: 400,
      code: 'invalid_request',
      detail: 'the request is not valid HTTP',
    });
  });

  it('414: a path parameter longer than the router allows (FST_ERR_MAX_PARAM_LENGTH)', async () => {
    const res = await call(app, 'GET', `/api/v1/webhooks/${'a'.repeat(500)}`);
    expectProblem(res, 414, 'uri_too_long');
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('400: a path with bad percent-encoding (FST_ERR_BAD_URL)', async () => {
    expectProblem(await call(app, 'GET', '/api/v1/webhooks/%E0%A4%A'), 400, 'invalid_request');
  });

  it('413: a body over the limit', async () => {
    expectProblem(
      await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: { x: 'y'.repeat(10_000) } }),
      413,
      'payload_too_large',
    );
  });

  it('400: malformed JSON, and prototype poisoning', async () => {
    expectProblem(
      await call(app, 'POST', '/api/v1/calc/fee-calculator', {
        body: '{"a":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    );
    expectProblem(
      await call(app, 'POST', '/api/v1/calc/fee-calculator', {
        body: '{"__proto__":{"x":1}}',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    );
  });

  it('415: a content type we do not read, and a malformed one', async () => {
    expectProblem(
      await call(app, 'POST', '/api/v1/calc/fee-calculator', {
        body: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
    const bad = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
      body: '{}',
      headers: { 'content-type': '???' },
    });
    expect([400, 415]).toContain(bad.status);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('400: a Content-Length that does not match the body', async () => {
    const answer = await rawRequest(
      port,
      'POST /api/v1/calc/fee-calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
    );
    const parsed = parseRaw(answer);
    expect(parsed.status).toBe(400);
    expect(parsed.contentType).toMatch(/^application\/problem\+json/);
  });

  it('400: an HTTP/1.1 request without Host (Node answered a bare 400 without a body or a Content-Type)', async () => {
    const request = 'GET /api/v1/fund/overview HTTP/1.1\r\nConnection: close\r\n\r\n';
    expect(parseRaw(await rawRequest(port, request))).toMatchObject({
      status: 400,
      contentType: expect.stringMatching(/^application\/problem\+json/),
      json: { status: 400, code: 'invalid_request', detail: 'an HTTP/1.1 request must carry a Host header' },
    });
  });

  it('HTTP/1.0 needs no Host, and HTTP/1.1 with one is served', async () => {
    expect(parseRaw(await rawRequest(port, 'GET /health HTTP/1.0\r\n\r\n')).status).toBe(200);
    const withHost = await rawRequest(port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(parseRaw(withHost).status).toBe(200);
  });

  it('404 and 405: unknown routes and methods are problems', async () => {
    expectProblem(await call(app, 'GET', '/nope'), 404, 'not_found');
    expectProblem(await call(app, 'PUT', '/api/v1/calc/fee-calculator', { body: {} }), 405, 'method_not_allowed');
  });

  it('404: the web assets folder, /assets/ (@fastify/static refuses a folder with a plain 403 error: it was a 500)', async () => {
    expectProblem(await call(app, 'GET', '/assets/'), 404, 'not_found');
  });
});
