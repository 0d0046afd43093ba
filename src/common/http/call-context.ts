import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What a write route needs of its call besides principal and body: the Idempotency-Key and a way to
 * add an answer header. Over HTTP it comes from the request and reply (`@CurrentCall()`); an MCP tool
 * call builds it from the tool's arguments (ToolInvoker), so both run the same handler the same way.
 */
export interface CallContext {
  /** The Idempotency-Key as sent (validated by the idempotency service), or undefined. */
  idempotencyKey: string | string[] | undefined;
  /** What the caller calls it, for refusals: the header over HTTP, the tool argument over MCP. */
  idempotencyField: string;
  /** Adds a header to the answer (MCP tool results carry no headers: ignored there). */
  header(name: string, value: string): void;
}

export function httpCallContext(req: FastifyRequest, reply: FastifyReply): CallContext {
  return {
    idempotencyKey: req.headers['idempotency-key'],
    idempotencyField: 'Idempotency-Key',
    header: (name, value) => void reply.header(name, value),
  };
}

export const CurrentCall = createParamDecorator((_: unknown, ctx: ExecutionContext): CallContext => {
  const http = ctx.switchToHttp();
  return httpCallContext(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
});
