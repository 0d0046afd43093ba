import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, problemBody } from '../errors/problem';
import { sendProblem, toProblemError } from '../errors/problem.filter';
import { DeferredJsonBody, deferJsonBodyAt, parseJsonBody } from './json-body';

type ParserDone = (err: Error | null, body?: unknown) => void;

/**
 * The JSON body parser: `parseJsonBody` on the event loop, except on routes that defer large
 * bodies (DEFER_JSON_BODY_AT in their route config), which receive the bytes as a DeferredJsonBody.
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json']);
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (req: FastifyRequest, body: string | Buffer, done: ParserDone) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      const deferAt = deferJsonBodyAt(req.routeOptions.config);
      if (deferAt !== undefined && text.length >= deferAt) return done(null, new DeferredJsonBody(text));
      try {
        done(null, parseJsonBody(text));
      } catch (err) {
        done(err as Error);
      }
    },
  );
}

/** Fastify's router errors (414 FST_ERR_MAX_PARAM_LENGTH, 400 FST_ERR_BAD_URL, ...) as problem+json. */
export function frameworkErrors(err: Error, req: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', req.id); // no onRequest hook runs for these
  sendProblem(reply, req, toProblemError(err, req));
}

/**
 * The first onRequest hook, one for two jobs (every hook is work on every request): the request id
 * on every answer, and HTTP/1.1's required Host header (RFC 9112 §3.2). Node's own Host check
 * answers a bare 400 without a body, so the server is created without it and a request lacking
 * Host is refused here with a problem, closing the connection. HTTP/1.0 needs no Host.
 */
export function firstRequestHook(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.header('X-Request-Id', req.id);
  if (req.headers.host !== undefined || req.raw.httpVersion !== '1.1') return done();
  reply.header('connection', 'close');
  sendProblem(reply, req, new ProblemError('invalid_request', 'an HTTP/1.1 request must carry a Host header'));
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'the request headers are larger than allowed'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'the request was not received in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'request_timeout', 'the request headers were not received in time'],
};

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (oversized headers, malformed
 * request lines, timeouts): a problem+json answer written on the socket, then the socket closes.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] = CLIENT_ERRORS[err.code ?? ''] ?? [
    400,
    'invalid_request',
    'the request is not valid HTTP',
  ];
  if (socket.writable) {
    const problem = new ProblemError(code as never, detail);
    const body = JSON.stringify(problemBody(problem, '/', randomUUID()));
    socket.write(
      `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

function statusText(status: number): string {
  return { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status] ?? 'Error';
}
