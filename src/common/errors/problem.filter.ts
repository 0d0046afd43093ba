import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLockWaitTimeout } from '../../database/sql-fragments';
import { PROBLEM_TITLES, ProblemCode, ProblemError, problemBody } from './problem';
import { notJson } from '../http/json-body';

const STATUS_CODES: Record<number, ProblemCode> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  431: 'headers_too_large',
  503: 'unavailable',
};

const logger = new Logger('Errors');

/** Maps anything thrown (ours, Nest's, Fastify's) to a ProblemError; unknown errors become a bare 500. */
export function toProblemError(exception: unknown, req: FastifyRequest): ProblemError {
  if (exception instanceof ProblemError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = STATUS_CODES[status];
    if (code === 'not_found') return new ProblemError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`);
    if (code === 'unsupported_media_type') return unsupportedMediaType(req);
    if (code) return new ProblemError(code, publicMessage(exception.getResponse(), exception.message));
  }
  if (exception instanceof SyntaxError && (exception as { statusCode?: number }).statusCode === 400) {
    return notJson(exception);
  }
  const framework = frameworkProblem(exception, req);
  if (framework) return framework;
  const busy = databaseBusy(exception);
  if (busy) return busy;
  logger.error(
    JSON.stringify({
      msg: 'unhandled error',
      requestId: req.id,
      route: req.routeOptions?.url,
      error: exception instanceof Error ? exception.message : String(exception),
    }),
  );
  return new ProblemError('internal', `an internal error occurred; quote request id ${req.id}`);
}

/**
 * An error Fastify or one of its plugins raised about the request itself: Fastify's own (an FST_ code
 * and a statusCode) and a plugin's http-errors carrying a 4xx statusCode (@fastify/static's 403, ...)
 * become the problem of that status; a 4xx without a problem code of its own is invalid_request.
 * The message is shown only when the error says it may be (FST_ codes, http-errors' `expose`).
 */
function frameworkProblem(exception: unknown, req: FastifyRequest): ProblemError | null {
  const e = exception as { code?: unknown; statusCode?: unknown; message?: unknown; expose?: unknown } | null;
  if (typeof e?.statusCode !== 'number') return null;
  const fastify = typeof e.code === 'string' && e.code.startsWith('FST_');
  if (!fastify && (e.statusCode < 400 || e.statusCode > 499)) return null;
  const special = fastify ? FASTIFY_CODES[e.code as string] : undefined;
  if (special) return special(req);
  const code = e.statusCode === 400 ? 'invalid_request' : STATUS_CODES[e.statusCode];
  const shown = (fastify || e.expose === true) && typeof e.message === 'string' ? e.message : undefined;
  if (code) return new ProblemError(code, shown ?? PROBLEM_TITLES[code]);
  if (e.statusCode >= 400 && e.statusCode < 500) return new ProblemError('invalid_request', shown ?? 'bad request');
  return null;
}

const FASTIFY_CODES: Record<string, (req: FastifyRequest) => ProblemError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ProblemError('payload_too_large', 'the request body is larger than allowed'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (req) => unsupportedMediaType(req),
  FST_ERR_MAX_PARAM_LENGTH: () => new ProblemError('uri_too_long', 'a path segment of the URL is longer than allowed'),
  FST_ERR_BAD_URL: () =>
    new ProblemError('invalid_request', 'the URL has a path segment that is not valid percent-encoding'),
};

function unsupportedMediaType(req: FastifyRequest): ProblemError {
  return new ProblemError(
    'unsupported_media_type',
    `unsupported Content-Type "${req.headers['content-type'] ?? ''}"; send application/json`,
  );
}

function publicMessage(response: string | object, fallback: string): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return fallback;
}

export function sendProblem(reply: FastifyReply, req: FastifyRequest, problem: ProblemError): void {
  if (problem.headers) reply.headers(problem.headers);
  reply
    .status(problem.status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .send(JSON.stringify(problemBody(problem, req.url.split('?')[0], String(req.id))));
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const problem = toProblemError(exception, req);
    if (problem.code === 'invalid_request' && req.url.startsWith('/api/mcp')) {
      // JSON-RPC clients expect a JSON-RPC error, not a problem document: a body that could not be
      // parsed is a parse error; any other refused request (an unsupported MCP-Protocol-Version) is not.
      const parse = problem.errors?.some((e) => e.field === 'body') ?? false;
      const error = parse
        ? { code: -32700, message: `Parse error: ${problem.detail}` }
        : { code: -32600, message: `Invalid Request: ${problem.detail}` };
      http
        .getResponse<FastifyReply>()
        .status(400)
        .header('content-type', 'application/json; charset=utf-8')
        .send({ jsonrpc: '2.0', id: null, error });
      return;
    }
    sendProblem(http.getResponse<FastifyReply>(), req, problem);
  }
}

/**
 * A statement that gave up waiting (PostgreSQL's lock_timeout, 55P03, or statement_timeout, 57014) is
 * something to retry, not an internal error: an import holds the fund's row for its whole
 * transaction, and a request needing that row (a proposal's insert checks it) waits, then gives up.
 * Nothing was written: the request's transaction rolled back.
 */
function databaseBusy(exception: unknown): ProblemError | null {
  if (!exception || !isLockWaitTimeout(exception)) return null;
  if ((exception as { code: string }).code === '55P03')
    return new ProblemError(
      'invalid_state',
      'the fund is busy: an import, a NAV run or another change holds what this request needs; nothing was written, try again shortly',
      undefined,
      { 'retry-after': '5' },
    );
  return new ProblemError(
    'unavailable',
    'the request took longer than allowed; nothing was written, try again',
    undefined,
    {
      'retry-after': '5',
    },
  );
}
