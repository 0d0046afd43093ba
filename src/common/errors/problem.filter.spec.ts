import type { FastifyRequest } from 'fastify';
import { toProblemError } from './problem.filter';

const req = {
  method: 'GET',
  url: '/assets/x?y=1',
  id: 'req-1',
  routeOptions: {},
  headers: {},
} as unknown as FastifyRequest;

/** An error a plugin raises with a 4xx statusCode (http-errors) is that problem, never internal. */
describe('toProblemError: errors of Fastify plugins', () => {
  const httpError = (statusCode: number, message: string, expose: boolean) =>
    Object.assign(new Error(message), { statusCode, status: statusCode, expose });

  it.each([
    [403, 'forbidden'],
    [404, 'not_found'],
    [405, 'method_not_allowed'],
    [416, 'invalid_request'],
  ])('a %i http-error is %s', (status, code) => {
    const problem = toProblemError(httpError(status, 'Range Not Satisfiable', true), req);
    expect([problem.status, problem.code]).toEqual([status === 416 ? 400 : status, code]);
  });

  it('its message is shown only when the error says it may be (expose)', () => {
    expect(toProblemError(httpError(403, 'Forbidden', true), req).detail).toBe('Forbidden');
    const hidden = toProblemError(httpError(404, "ENOENT: no such file, stat '/srv/dist/web/assets/x'", false), req);
    expect(hidden.detail).toBe('Not found');
  });

  it('a 5xx http-error and an error without a status stay internal', () => {
    expect(toProblemError(httpError(502, 'Bad Gateway', true), req).code).toBe('internal');
    expect(toProblemError(new Error('boom'), req).code).toBe('internal');
  });

  it("Fastify's own errors keep their mapping", () => {
    const tooLarge = Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
    expect(toProblemError(tooLarge, req).code).toBe('payload_too_large');
    const other = Object.assign(new Error('bad header'), { code: 'FST_ERR_SOMETHING', statusCode: 400 });
    expect(toProblemError(other, req)).toMatchObject({ code: 'invalid_request', detail: 'bad header' });
    const json = Object.assign(new SyntaxError('Unexpected end of JSON input'), { statusCode: 400 });
    expect(toProblemError(json, req).errors).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
  });
});
