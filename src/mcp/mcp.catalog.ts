import { Injectable, type Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AUTH_MODE, REQUIRED_SCOPES, type AuthMode } from '../common/auth/auth.decorators';
import type { Scope } from '../common/auth/scopes';
import { redactionOf } from '../common/redaction/redaction.interceptor';
import type { PolicyName } from '../config/config';
import { RATE_POLICY } from '../usage/rate-limit/rate-limit.decorator';
import { authSentence } from '../common/openapi/contract';
import { deferJsonBodyAt } from '../common/http/json-body';
import { calculatorRouteConfig } from '../calculators/calculator-pool';
import { CALCULATORS } from '../calculators/calculators.registry';
import { type ArgumentError, argumentTypeCheck, toJsonSchema } from './json-schema';

export type McpServerName = 'public' | 'fund';
type Schema = Record<string, unknown>;

/**
 * How a tool's arguments reach its route handler, from the handler's arity: `(input)` keyless
 * calculators, `(principal, input)` reads, `(principal, input, call: CallContext)` propose routes.
 */
export type ToolBinding = 'input' | 'principal-input' | 'principal-input-call';
const BINDINGS: Record<number, ToolBinding> = { 1: 'input', 2: 'principal-input', 3: 'principal-input-call' };

/** The route a tool is bound to: its controller method and what its decorators declare. */
export interface ToolRoute {
  instance: object;
  /** The route handler as HTTP runs it (redacting its answer where the route is redacted). */
  handler: (...args: unknown[]) => unknown;
  binding: ToolBinding;
  /** The handler's parameter types (design:paramtypes): a read route's query DTO, a POST route's body DTO. */
  paramTypes: Type<unknown>[];
  policy: PolicyName | undefined;
  auth: AuthMode;
  /** Whether the handler reduces its answer to the declared schema (every required-auth tool must). */
  redacted: boolean;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  server: McpServerName;
  method: 'GET' | 'POST';
  path: string;
  scopes: Scope[];
  route: ToolRoute;
  inputSchema: Schema;
  /**
   * Read tools: the JSON type check of the arguments against `inputSchema` (built once, at boot), run
   * before they become the route's query text; null when there is nothing to check (no parameters)
   * and for POST tools, whose body DTO sees the JSON types itself.
   */
  checkArguments: ((args: Record<string, unknown>) => ArgumentError[]) | null;
  outputSchema: Schema;
  /** REST answers that are arrays are wrapped as { items } (structuredContent must be an object). */
  wrapsArray: boolean;
  acceptsIdempotencyKey: boolean;
  /**
   * Calculators whose REST route defers a JSON body of this many characters or more to the worker
   * pool (calculatorRouteConfig: the text calculators, HEAVY_TEXT_CHARS): arguments as large are
   * deferred the same way (ToolInvoker). Undefined for every other tool.
   */
  deferArgumentsAt: number | undefined;
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

const READ_SUFFIX =
  ' Money, prices, quantities, units and rates are decimal strings (money in the fund base currency with 2 decimals; rates are fractions of 1, not percentages).';
const PROPOSE_SUFFIX =
  ' This only stages a maker-checker proposal: nothing executes until a different human manager approves it. Pass idempotencyKey to make a retry safe.';
/** The calculator routes' own descriptions already say "Illustrative, not accounting or tax advice." */
const CALC_SUFFIX =
  ' Stateless: computed from the arguments alone (no fund data, nothing stored). Percent inputs are in percent units (2 means 2 %).';

/**
 * The one tool registry, built once at boot: one read tool per fund-data GET route, one propose tool
 * per propose route, one calculator tool per calculator route. Each tool is bound to its controller
 * method, found with Nest's public DiscoveryService; scopes, rate-limit policy and output DTO come from
 * our own decorators (Reflector), the input DTOs from the handler's parameter types, and path, method
 * and JSON schemas from the OpenAPI operation that @nestjs/swagger generated for that same handler
 * (matched by its operationId, `<Controller>_<method>`), so the schemas are those that validate REST.
 */
@Injectable()
export class McpCatalog {
  private tools = new Map<string, McpTool>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  load(doc: OpenAPIObject): void {
    const components = (doc.components?.schemas ?? {}) as Record<string, Schema>;
    const operations = new Map<string, { path: string; method: 'get' | 'post'; op: Schema }>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['get', 'post'] as const) {
        const op = (item as Record<string, Schema | undefined>)[method];
        if (typeof op?.operationId === 'string') operations.set(op.operationId, { path, method, op });
      }
    }
    const tools = new Map<string, McpTool>();
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      const cls = wrapper.metatype as Type<unknown> | null;
      if (!instance || !cls) continue;
      for (const methodName of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
        const found = operations.get(`${cls.name}_${methodName}`);
        const kind = found && toolKindOf(found.path, found.method);
        const route = kind && this.routeOf(cls, instance, methodName);
        if (!found || !kind || !route) continue;
        const tool = this.toolFor(found.path, found.method, found.op, components, kind, route);
        tools.set(tool.name, tool);
      }
    }
    this.tools = tools;
  }

  private routeOf(
    cls: Type<unknown>,
    instance: Record<string, unknown>,
    methodName: string,
  ): (ToolRoute & { scopes: Scope[] | undefined }) | undefined {
    const handler = instance[methodName];
    if (typeof handler !== 'function') return undefined;
    const targets = [handler, cls];
    const binding = BINDINGS[handler.length];
    if (!binding) throw new Error(`${cls.name}.${methodName}: a tool route takes 1 to 3 parameters (see ToolBinding)`);
    return {
      instance,
      handler: handler as ToolRoute['handler'],
      binding,
      paramTypes: (Reflect.getMetadata('design:paramtypes', cls.prototype as object, methodName) ??
        []) as Type<unknown>[],
      redacted: redactionOf(this.reflector, handler, cls).redacted,
      policy: this.reflector.getAllAndOverride<PolicyName | undefined>(RATE_POLICY, targets),
      auth: this.reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE, targets) ?? 'required',
      scopes: this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, targets),
    };
  }

  private toolFor(
    path: string,
    method: 'get' | 'post',
    op: Schema,
    components: Record<string, Schema>,
    { name, server, suffix }: ToolKind,
    { scopes, ...route }: ToolRoute & { scopes: Scope[] | undefined },
  ): McpTool {
    if (route.auth === 'required' && !route.redacted) throw new Error(`tool ${name}: its route does not redact`);
    const { output, wrapsArray } = outputSchemaOf(op, components);
    const acceptsIdempotencyKey = route.binding === 'principal-input-call';
    const summary = typeof op.summary === 'string' ? op.summary : name;
    const readOnly = method === 'get' || server === 'public';
    const inputSchema = inputSchemaOf(method, op, components, acceptsIdempotencyKey);
    return {
      name,
      title: summary.split(/[.;(]/)[0].trim().slice(0, 80),
      description: descriptionOf(summary, op, server, route.auth, scopes ?? [], suffix),
      server,
      method: method === 'get' ? 'GET' : 'POST',
      path,
      scopes: scopes ?? [],
      route,
      inputSchema,
      checkArguments: method === 'get' ? argumentTypeCheck(inputSchema) : null,
      outputSchema: output,
      wrapsArray,
      acceptsIdempotencyKey,
      deferArgumentsAt: server === 'public' ? calculatorDeferAt(path) : undefined,
      annotations: { readOnlyHint: readOnly, idempotentHint: readOnly, destructiveHint: false, openWorldHint: false },
    };
  }

  toolsFor(server: McpServerName, scopes: readonly Scope[]): McpTool[] {
    return [...this.tools.values()].filter((t) => t.server === server && t.scopes.every((s) => scopes.includes(s)));
  }

  /** A tool by name, whatever the caller holds (resources name the read tool they are read through). */
  byName(name: string): McpTool | undefined {
    return this.tools.get(name);
  }

  find(server: McpServerName, name: string, scopes: readonly Scope[]): McpTool | undefined {
    const tool = this.tools.get(name);
    return tool && tool.server === server && tool.scopes.every((s) => scopes.includes(s)) ? tool : undefined;
  }
}

/** Where the calculator route at `path` defers its JSON body (the REST route's own config), if it does. */
function calculatorDeferAt(path: string): number | undefined {
  const def = CALCULATORS.find((d) => path === `/api/v1/calc/${d.path}`);
  return def && deferJsonBodyAt(calculatorRouteConfig(def));
}

const asSentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The summary once, then what the operation's description adds (the contract's generated description
 * opens with the summary), then the server's note. On the fund server the auth sentence names what
 * /api/mcp accepts (an API key or an OAuth access token, never a console session) instead of what the
 * REST route accepts.
 */
function descriptionOf(
  summary: string,
  op: Schema,
  server: McpServerName,
  auth: AuthMode,
  scopes: Scope[],
  suffix: string,
): string {
  const own = typeof op.description === 'string' ? op.description.trim() : '';
  let detail = own.startsWith(`${summary}.`) ? own.slice(summary.length + 1).trim() : own;
  if (server === 'fund') {
    const rest = authSentence(auth, scopes, op['x-session-access'] as Parameters<typeof authSentence>[2]);
    const mcp = authSentence(auth, scopes, undefined, 'an API key or OAuth access token');
    detail = detail.includes(rest) ? detail.replace(rest, mcp) : `${detail} ${mcp}`.trim();
  }
  return [asSentence(summary.trim()), detail && asSentence(detail), suffix.trim()].filter(Boolean).join(' ');
}

/** Which server a route's tool belongs to, and its name: fund reads, proposals, calculators; null for the rest. */
interface ToolKind {
  server: McpServerName;
  name: string;
  suffix: string;
}

function toolKindOf(path: string, method: 'get' | 'post'): ToolKind | null {
  if (path.includes('{')) return null;
  const snake = (rest: string) => rest.replace(/[/-]/g, '_');
  if (method === 'get' && path.startsWith('/api/v1/fund/') && !path.startsWith('/api/v1/fund/proposals')) {
    return { server: 'fund', name: 'get_' + snake(path.slice('/api/v1/'.length)), suffix: READ_SUFFIX };
  }
  if (method === 'post' && path.startsWith('/api/v1/fund/proposals/')) {
    return {
      server: 'fund',
      name: 'propose_' + snake(path.slice('/api/v1/fund/proposals/'.length)),
      suffix: PROPOSE_SUFFIX,
    };
  }
  if (method === 'post' && path.startsWith('/api/v1/calc/')) {
    return { server: 'public', name: snake(path.slice('/api/v1/calc/'.length)), suffix: CALC_SUFFIX };
  }
  return null;
}

/** The 200/201 JSON schema as plain JSON Schema; an array answer is wrapped as `{ items }` (structuredContent is an object). */
function outputSchemaOf(op: Schema, components: Record<string, Schema>): { output: Schema; wrapsArray: boolean } {
  const responses = (op.responses ?? {}) as Record<string, Schema>;
  const ok = responses['200'] ?? responses['201'];
  const okSchema = ((ok?.content as Record<string, Schema> | undefined)?.['application/json']?.schema ?? {
    type: 'object',
  }) as Schema;
  const output = toJsonSchema(okSchema, components);
  if (output.type !== 'array') return { output, wrapsArray: false };
  return { output: { type: 'object', properties: { items: output }, required: ['items'] }, wrapsArray: true };
}

/** GET: the query parameters as one object; POST: the JSON body (propose tools also take an idempotencyKey). */
function inputSchemaOf(
  method: 'get' | 'post',
  op: Schema,
  components: Record<string, Schema>,
  acceptsIdempotencyKey: boolean,
): Schema {
  let input: Schema;
  if (method === 'get') {
    const params = ((op.parameters ?? []) as Schema[]).filter((p) => p.in === 'query');
    const property = (p: Schema): Schema => ({
      ...toJsonSchema((p.schema ?? {}) as Schema, components),
      ...(p.description ? { description: p.description } : {}),
    });
    input = {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name as string, property(p)])),
      required: params.filter((p) => p.required).map((p) => p.name as string),
      additionalProperties: false,
    };
  } else {
    const content = (op.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
    const body = content?.['application/json']?.schema as Schema | undefined;
    input = body ? toJsonSchema(body, components) : { type: 'object', properties: {} };
    if (input.type !== 'object') input = { type: 'object', properties: {} };
    input.additionalProperties = false;
  }
  if (!acceptsIdempotencyKey) return input;
  const idempotencyKey = {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    description: 'Makes a retried call safe: the same key and arguments replay the first answer.',
  };
  return { ...input, properties: { ...(input.properties as Schema), idempotencyKey } };
}
