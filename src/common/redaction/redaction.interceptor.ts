import { applyDecorators, type INestApplicationContext, Logger, SetMetadata, type Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { ApiResponse } from '@nestjs/swagger';
import { AUTH_MODE, type AuthMode } from '../auth/auth.decorators';
import { ProblemError } from '../errors/problem';
import { isShared, markShared } from '../http/shared-json';
import { checkRedactable, redact } from './redact';

export const RESPONSE_SCHEMA = 'fundgate:response-schema';
export const SKIP_REDACTION = 'fundgate:skip-redaction';

interface SchemaMeta {
  dto: Type<unknown>;
  isArray: boolean;
}

/** Declares the response schema: documents it in OpenAPI and drives redaction. */
export const Returns = (dto: Type<unknown>, opts: { status?: number; isArray?: boolean; description?: string } = {}) =>
  applyDecorators(
    SetMetadata(RESPONSE_SCHEMA, { dto, isArray: opts.isArray ?? false } satisfies SchemaMeta),
    ApiResponse({
      status: opts.status ?? 200,
      type: dto,
      isArray: opts.isArray,
      description: opts.description ?? 'OK',
    }),
  );

/** For transports that redact per item themselves (the MCP servers); the reason is required. */
export const RedactedElsewhere = (reason: string) => SetMetadata(SKIP_REDACTION, reason);

/** How one route's answers are redacted: decided once from its decorators. */
export interface RouteRedaction {
  redacted: boolean;
  schema: SchemaMeta | undefined;
  route: string;
  /** Redacted forms of shared (cached) answers: a cached answer object is redacted once, not per request. */
  memo: WeakMap<object, unknown>;
}

const logger = new Logger('Redaction');
const WRAPPED = Symbol('fundgate:redacting-handler');

/** Required-auth routes are redacted unless they declare RedactedElsewhere; the schema is their @Returns. */
export function redactionOf(reflector: Reflector, handler: object, cls: Type<unknown>): RouteRedaction {
  const targets = [handler as () => unknown, cls];
  const mode = reflector.getAllAndOverride<AuthMode>(AUTH_MODE, targets) ?? 'required';
  return {
    redacted: mode === 'required' && !reflector.getAllAndOverride<string>(SKIP_REDACTION, targets),
    schema: reflector.getAllAndOverride<SchemaMeta>(RESPONSE_SCHEMA, targets),
    route: `${cls.name}.${(handler as { name?: string }).name ?? '?'}`,
    memo: new WeakMap(),
  };
}

/**
 * Fail-closed: a redacted route's answer is reduced to its declared schema. A route with no
 * schema, or a value that does not fit, answers 500 with no data.
 */
export function redactAnswer(r: RouteRedaction, body: unknown): unknown {
  if (!r.redacted) return body;
  if (!r.schema) {
    logger.error(`${r.route} declares no response schema; answer withheld`);
    throw new ProblemError('internal', 'this route has no declared response schema; nothing was returned');
  }
  if (body === undefined) return body; // 204-style answers carry nothing to redact
  const shared = isShared(body);
  const seen = shared ? r.memo.get(body) : undefined;
  if (seen !== undefined) return seen;
  try {
    const redacted = redact(body, r.schema.dto, r.schema.isArray);
    if (shared) r.memo.set(body, markShared(redacted));
    return redacted;
  } catch (err) {
    logger.error(`${r.route} redaction failed: ${(err as Error).message}; answer withheld`);
    throw new ProblemError('internal', 'the answer could not be redacted; nothing was returned');
  }
}

/**
 * The handler itself, redacting what it answers (same metadata, name and arity, so Nest, Swagger
 * and the MCP catalog see the route unchanged). Replaces a global Nest interceptor: on Node 20 an
 * interceptor costs two AsyncResource.bind calls per request (each building deprecation wrappers)
 * plus an rxjs pipeline — measured, one pass-through global interceptor cuts Nest's throughput
 * from about 63 000 to 14 000 req/s (docs/performance.md).
 */
export function redactingHandler(
  handler: (...args: unknown[]) => unknown,
  r: RouteRedaction,
): (...args: unknown[]) => Promise<unknown> {
  const wrapped = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
    return redactAnswer(r, await handler.apply(this, args));
  };
  for (const key of Reflect.getOwnMetadataKeys(handler))
    Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), wrapped);
  Object.defineProperty(wrapped, 'name', { value: handler.name });
  Object.defineProperty(wrapped, 'length', { value: handler.length });
  Object.defineProperty(wrapped, WRAPPED, { value: true });
  return wrapped;
}

/**
 * Before app.init(): every route handler of every controller that must be redacted is replaced by
 * its redacting form (once per process: controllers' prototypes are shared by every app built in
 * it). Answers how many routes redact.
 */
export function installRouteRedaction(app: INestApplicationContext): number {
  const reflector = app.get(Reflector);
  let count = 0;
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const cls = wrapper.metatype as Type<unknown> | null;
      if (!cls) continue;
      const proto = cls.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const fn = proto[name];
        if (name === 'constructor' || typeof fn !== 'function' || Reflect.getMetadata(PATH_METADATA, fn) === undefined)
          continue;
        const rule = redactionOf(reflector, fn, cls);
        if (!rule.redacted) continue;
        // at boot, not at the first request: a schema declaring a PII or secret member stops the service
        if (rule.schema) checkRedactable(rule.schema.dto);
        count++;
        if (!(fn as unknown as Record<symbol, boolean>)[WRAPPED])
          proto[name] = redactingHandler(fn as (...args: unknown[]) => unknown, rule);
      }
    }
  }
  return count;
}
