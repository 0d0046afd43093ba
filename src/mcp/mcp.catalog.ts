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
 * calculators, `(principal, input)` reads, `(principal, input, call: CallContext)` propose routes; and,
 * for a route with path parameters (the maker's withdrawal), `(principal, ...path ids, body)`.
 */
export type ToolBinding = 'input' | 'principal-input' | 'principal-input-call' | 'principal-path-input';
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
   * The arguments that fill the route's path parameters, in the path's order (the handler takes them
   * after the principal): ids, which the REST route checks with `uuidParam`, and so does ToolInvoker,
   * naming the argument. Empty for every tool without a path parameter.
   */
  pathArguments: string[];
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
const WITHDRAW_SUFFIX =
  ' Pass proposalId, the id a propose_* tool answered, and optionally a note. Answers the proposal record, now with status withdrawn, withdrawnAt, withdrawnBy and withdrawalNote; a proposal that is not yours (or no proposal) is a not_found tool error, and one already approved or rejected an invalid_state tool error.';
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
        const route = kind && this.routeOf(cls, instance, methodName, Object.keys(kind.pathArguments ?? {}).length);
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
    pathCount: number,
  ): (ToolRoute & { scopes: Scope[] | undefined }) | undefined {
    const handler = instance[methodName];
    if (typeof handler !== 'function') return undefined;
    const targets = [handler, cls];
    const paramTypes = (Reflect.getMetadata('design:paramtypes', cls.prototype as object, methodName) ??
      []) as Type<unknown>[];
    return {
      instance,
      handler: handler as ToolRoute['handler'],
      binding: bindingOf(`${cls.name}.${methodName}`, handler.length, paramTypes, pathCount),
      paramTypes,
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
    { name, server, suffix, pathArguments = {}, hints }: ToolKind,
    { scopes, ...route }: ToolRoute & { scopes: Scope[] | undefined },
  ): McpTool {
    if (route.auth === 'required' && !route.redacted) throw new Error(`tool ${name}: its route does not redact`);
    const { output, wrapsArray } = outputSchemaOf(op, components);
    const acceptsIdempotencyKey = route.binding === 'principal-input-call';
    const summary = typeof op.summary === 'string' ? op.summary : name;
    const readOnly = method === 'get' || server === 'public';
    const ids = pathArgumentsOf(name, op, pathArguments);
    const inputSchema = withPathArguments(inputSchemaOf(method, op, components, acceptsIdempotencyKey), ids);
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
      pathArguments: ids.map((a) => a.name),
      deferArgumentsAt: server === 'public' ? calculatorDeferAt(path) : undefined,
      annotations: {
        readOnlyHint: readOnly,
        idempotentHint: readOnly,
        destructiveHint: false,
        openWorldHint: false,
        ...hints,
      },
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

/** A tool argument that fills a path parameter: its name and what it is (an id the route checks as a UUID). */
interface PathArgument {
  name: string;
  description: string;
}

/** Which server a route's tool belongs to, and its name: fund reads, proposals, calculators; null for the rest. */
interface ToolKind {
  server: McpServerName;
  name: string;
  suffix: string;
  /** The route's path parameters, by name, and the tool arguments that fill them. */
  pathArguments?: Record<string, PathArgument>;
  hints?: Partial<McpTool['annotations']>;
}

const WITHDRAW_PATH = '/api/v1/fund/proposals/{id}/withdraw';

/**
 * The maker's withdrawal: irreversible (a host should confirm it), and a second call answers the
 * withdrawn record unchanged, so it is idempotent.
 */
const WITHDRAW_KIND: ToolKind = {
  server: 'fund',
  name: 'withdraw_proposal',
  suffix: WITHDRAW_SUFFIX,
  pathArguments: {
    id: { name: 'proposalId', description: 'The id of your pending proposal, as a propose_* tool answered it.' },
  },
  hints: { idempotentHint: true, destructiveHint: true },
};

function toolKindOf(path: string, method: 'get' | 'post'): ToolKind | null {
  if (method === 'post' && path === WITHDRAW_PATH) return WITHDRAW_KIND;
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

/**
 * How a tool route's handler takes its arguments: by arity (see ToolBinding), or, with path
 * parameters, `(principal, ...ids, body)`, whose ids must be declared strings (checked at boot).
 */
function bindingOf(route: string, arity: number, paramTypes: Type<unknown>[], pathCount: number): ToolBinding {
  if (pathCount === 0 && BINDINGS[arity]) return BINDINGS[arity];
  const ids = paramTypes.slice(1, 1 + pathCount);
  if (pathCount > 0 && arity === pathCount + 2 && paramTypes.length === arity && ids.every((t) => t === String))
    return 'principal-path-input';
  throw new Error(
    `${route}: a tool route takes 1 to 3 parameters, or (principal, ...path ids, body) (see ToolBinding)`,
  );
}

/** The tool arguments of the operation's path parameters, in the path's order; every one must be named by the kind. */
function pathArgumentsOf(tool: string, op: Schema, named: Record<string, PathArgument>): PathArgument[] {
  const params = ((op.parameters ?? []) as Schema[]).filter((p) => p.in === 'path').map((p) => p.name as string);
  const unnamed = params.filter((p) => !named[p]);
  if (unnamed.length > 0 || params.length !== Object.keys(named).length)
    throw new Error(`tool ${tool}: path parameters ${params.join(', ')} do not match its arguments`);
  return params.map((p) => named[p]);
}

/** The input schema with the path arguments first: required strings in the UUID format the route checks. */
function withPathArguments(input: Schema, ids: PathArgument[]): Schema {
  if (ids.length === 0) return input;
  const idSchema = (a: PathArgument): Schema => ({ type: 'string', format: 'uuid', description: a.description });
  return {
    ...input,
    properties: { ...Object.fromEntries(ids.map((a) => [a.name, idSchema(a)])), ...(input.properties as Schema) },
    required: [...ids.map((a) => a.name), ...((input.required as string[] | undefined) ?? [])],
  };
}
