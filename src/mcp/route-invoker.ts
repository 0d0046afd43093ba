import { Injectable, PipeTransform, Type } from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA, PIPES_METADATA, ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MODE, REQUIRED_SCOPES } from '../common/auth/auth.decorators';
import { assertScopes } from '../common/auth/auth.guard';
import type { Scope } from '../common/auth/scopes';
import { createValidationPipe } from '../common/errors/validation';
import { redact } from '../common/redaction/redact';
import { RESPONSE_SCHEMA } from '../common/redaction/redaction.interceptor';
import type { PolicyName } from '../config/config';
import { RATE_POLICY } from '../usage/rate-limit/rate-limit.decorator';
import { enforceRateLimit } from '../usage/rate-limit/rate-limit.guard';
import { RateLimitService } from '../usage/rate-limit/rate-limit.service';

type ParamSpec =
  | { index: number; kind: 'custom'; factory: (data: unknown, ctx: ExecutionContextHost) => unknown; data: unknown; pipes: PipeTransform[] }
  | { index: number; kind: 'query'; metatype: Type<unknown> | undefined; pipes: PipeTransform[] };

interface RouteBinding {
  instance: Record<string, (...args: unknown[]) => unknown>;
  method: string;
  params: ParamSpec[];
  scopes: Scope[];
  policy: PolicyName | undefined;
  schema: { dto: Type<unknown>; isArray: boolean };
}

/**
 * Runs a plain GET route's handler in-process for an MCP tool call, applying exactly what the
 * HTTP pipeline applies to such routes: scope check, rate limit, the global validation pipe and
 * parameter pipes, and redaction to the declared schema. Only routes made of @Query() and custom
 * parameter decorators, with no route-level guards, interceptors or pipes, are bound; anything
 * else is reported unbound and the caller goes through HTTP.
 */
@Injectable()
export class RouteInvoker {
  private readonly bindings = new Map<string, RouteBinding>();
  private readonly validation = createValidationPipe();

  constructor(
    private readonly modules: ModulesContainer,
    private readonly limits: RateLimitService,
  ) {}

  bindGetRoutes(): void {
    for (const mod of this.modules.values()) {
      for (const wrapper of mod.controllers.values()) {
        const cls = wrapper.metatype as Type<unknown> | null;
        const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown> | undefined;
        if (!cls || !instance) continue;
        const base = String(Reflect.getMetadata(PATH_METADATA, cls) ?? '');
        for (const method of Object.getOwnPropertyNames(cls.prototype)) {
          const handler = (cls.prototype as Record<string, unknown>)[method];
          if (method === 'constructor' || typeof handler !== 'function') continue;
          if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) continue;
          const binding = this.bind(cls, instance, method, handler);
          if (binding) this.bindings.set(`/${base}/${String(Reflect.getMetadata(PATH_METADATA, handler))}`.replace(/\/+/g, '/').replace(/\/$/, ''), binding);
        }
      }
    }
  }

  private bind(cls: Type<unknown>, instance: RouteBinding['instance'], method: string, handler: object): RouteBinding | undefined {
    const meta = <T>(key: string): T | undefined => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, cls);
    if ((meta<string>(AUTH_MODE) ?? 'required') !== 'required') return undefined;
    for (const key of [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA]) {
      if ((meta<unknown[]>(key) ?? []).length > 0) return undefined;
    }
    const scopes = meta<Scope[]>(REQUIRED_SCOPES);
    const schema = meta<RouteBinding['schema']>(RESPONSE_SCHEMA);
    if (!scopes || !schema) return undefined;
    const args: Record<string, { index: number; data?: unknown; pipes?: unknown[]; factory?: ParamSpec extends { factory: infer F } ? F : never }> =
      Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, method) ?? {};
    const types: Type<unknown>[] = Reflect.getMetadata('design:paramtypes', cls.prototype, method) ?? [];
    const params: ParamSpec[] = [];
    for (const [key, arg] of Object.entries(args)) {
      const pipes = (arg.pipes ?? []).map((p) => (typeof p === 'function' ? new (p as Type<PipeTransform>)() : p)) as PipeTransform[];
      if (key.includes(CUSTOM_ROUTE_ARGS_METADATA) && arg.factory) {
        params.push({ index: arg.index, kind: 'custom', factory: arg.factory, data: arg.data, pipes });
      } else if (key.startsWith(`${RouteParamtypes.QUERY}:`) && arg.data === undefined) {
        params.push({ index: arg.index, kind: 'query', metatype: types[arg.index], pipes });
      } else {
        return undefined;
      }
    }
    if (params.length !== types.length) return undefined; // an undecorated parameter: leave it to HTTP
    return { instance, method, params: params.sort((a, b) => a.index - b.index), scopes, policy: meta<PolicyName>(RATE_POLICY), schema };
  }

  isBound(path: string): boolean {
    return this.bindings.has(path);
  }

  /** The redacted answer of GET `path` with `query` as its query string would give it. */
  async invoke(path: string, req: FastifyRequest, reply: FastifyReply, query: Record<string, string>): Promise<unknown> {
    const b = this.bindings.get(path);
    if (!b) throw new Error(`no in-process binding for ${path}`);
    assertScopes(req, b.scopes);
    if (b.policy) await enforceRateLimit(this.limits, b.policy, req, reply);
    const ctx = new ExecutionContextHost([req, reply, undefined]);
    ctx.setType('http');
    const values: unknown[] = [];
    for (const p of b.params) {
      let value: unknown;
      if (p.kind === 'custom') {
        value = p.factory(p.data, ctx);
      } else {
        value = await this.validation.transform({ ...query }, { type: 'query', metatype: p.metatype, data: undefined });
      }
      for (const pipe of p.pipes) value = await pipe.transform(value, { type: p.kind === 'query' ? 'query' : 'custom', metatype: p.kind === 'query' ? p.metatype : undefined, data: undefined });
      values[p.index] = value;
    }
    const result = await b.instance[b.method](...values);
    return redact(result, b.schema.dto, b.schema.isArray);
  }
}
