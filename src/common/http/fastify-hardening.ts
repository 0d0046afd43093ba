import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError, problemBody } from '../errors/problem';
import { sendProblem, toProblemError } from '../errors/problem.filter';

/** Deeper JSON than this is refused before parsing: nothing we accept nests more than a few levels. */
export const MAX_JSON_DEPTH = 64;

/** At most `max` `{` and `[` in the whole text (native indexOf; a large CSV field costs almost nothing). */
function fewOpeners(text: string, max: number): boolean {
  let n = 0;
  for (const opener of ['{', '[']) {
    for (let i = text.indexOf(opener); i !== -1; i = text.indexOf(opener, i + 1)) if (++n > max) return false;
  }
  return true;
}

/** True when `text` opens more than `max` arrays/objects at once (strings skipped); one linear pass, no recursion. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  if (fewOpeners(text, max)) return false; // depth can never exceed the number of openers
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

type ParserDone = (err: Error | null, body?: unknown) => void;

/**
 * The one JSON body parser: an empty body is `{}`, a body nested deeper than MAX_JSON_DEPTH is a
 * 400 `invalid_request` naming the body, anything else goes to Fastify's own parser (which refuses
 * `__proto__` and `constructor.prototype` members).
 */
export function installJsonBodyParser(fastify: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser(['application/json']);
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (req: FastifyRequest, body: string | Buffer, done: ParserDone) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, {});
      if (jsonDepthExceeds(text, maxDepth)) {
        return done(
          new ProblemError('invalid_request', `the body nests arrays or objects deeper than ${maxDepth} levels`, [
            { field: 'body', message: `must not nest deeper than ${maxDepth} levels` },
          ]),
        );
      }
      (parse as unknown as (r: FastifyRequest, b: string, d: ParserDone) => void)(req, text, done);
    },
  );
}

/** Fastify's router errors (414 FST_ERR_MAX_PARAM_LENGTH, 400 FST_ERR_BAD_URL, ...) as problem+json. */
export function frameworkErrors(err: Error, req: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', req.id); // no onRequest hook runs for these
  sendProblem(reply, req, toProblemError(err, req));
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
