import { applyDecorators, CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor, SetMetadata, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiResponse } from '@nestjs/swagger';
import { map, Observable } from 'rxjs';
import { AUTH_MODE, AuthMode } from '../auth/auth.decorators';
import { ProblemError } from '../errors/problem';
import { redact } from './redact';

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
    ApiResponse({ status: opts.status ?? 200, type: dto, isArray: opts.isArray, description: opts.description ?? 'OK' }),
  );

/** For transports that redact per item themselves (the MCP servers); the reason is required. */
export const RedactedElsewhere = (reason: string) => SetMetadata(SKIP_REDACTION, reason);

/**
 * Fail-closed: every authenticated route's answer is reduced to its declared schema. A route
 * with no schema, or a value that does not fit, answers 500 with no data.
 */
@Injectable()
export class RedactionInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Redaction');
  private readonly routes = new WeakMap<object, { redacted: boolean; schema: SchemaMeta | undefined; route: string }>();
  constructor(private readonly reflector: Reflector) {}

  private routeOf(ctx: ExecutionContext) {
    const handler = ctx.getHandler();
    let r = this.routes.get(handler);
    if (!r) {
      const targets = [handler, ctx.getClass()];
      const mode = this.reflector.getAllAndOverride<AuthMode>(AUTH_MODE, targets) ?? 'required';
      r = {
        redacted: mode === 'required' && !this.reflector.getAllAndOverride<string>(SKIP_REDACTION, targets),
        schema: this.reflector.getAllAndOverride<SchemaMeta>(RESPONSE_SCHEMA, targets),
        route: `${ctx.getClass().name}.${handler.name}`,
      };
      this.routes.set(handler, r);
    }
    return r;
  }

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { redacted, schema, route } = this.routeOf(ctx);
    if (!redacted) return next.handle();
    return next.handle().pipe(
      map((body) => {
        if (!schema) {
          this.logger.error(`${route} declares no response schema; answer withheld`);
          throw new ProblemError('internal', 'this route has no declared response schema; nothing was returned');
        }
        if (body === undefined) return body; // 204-style answers carry nothing to redact
        try {
          return redact(body, schema.dto, schema.isArray);
        } catch (err) {
          this.logger.error(`${route} redaction failed: ${(err as Error).message}; answer withheld`);
          throw new ProblemError('internal', 'the answer could not be redacted; nothing was returned');
        }
      }),
    );
  }
}
