import { ModulesContainer } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { RequestMethod } from '@nestjs/common';
import { AUTH_MODE, REQUIRED_SCOPES, SESSION_ACCESS } from '../../src/common/auth/auth.decorators';
import { RESPONSE_SCHEMA, SKIP_REDACTION } from '../../src/common/redaction/redaction.interceptor';
import { SCOPES } from '../../src/common/auth/scopes';
import { bootApp, call, type TestApp, uniqueName } from '../utils/app';
import { HOST, ORIGIN, PASSWORD, person } from '../identity/console';

/** A class (response DTOs and the classes their members reference). */
type Class = abstract new (...args: never[]) => unknown;

/** Every route of the running application, with its declared auth, scopes and response schema. */
function routesOf(app: TestApp) {
  const routes: {
    route: string;
    mode: string;
    scopes: string[] | undefined;
    schema: boolean;
    dto?: Class;
    session: boolean;
    readsQuery: boolean;
    readsBody: boolean;
    rawReply: boolean;
  }[] = [];
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as (new () => object) | null;
      if (!cls) continue;
      const base = Reflect.getMetadata(PATH_METADATA, cls) as string;
      for (const name of Object.getOwnPropertyNames(cls.prototype)) {
        const handler = (cls.prototype as Record<string, unknown>)[name];
        if (
          name === 'constructor' ||
          typeof handler !== 'function' ||
          Reflect.getMetadata(PATH_METADATA, handler) === undefined
        )
          continue;
        const meta = (key: string) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, cls);
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        routes.push({
          route: `${method} /${base}/${Reflect.getMetadata(PATH_METADATA, handler)}`
            .replace(/\/+/g, '/')
            .replace(/\/$/, ''),
          mode: meta(AUTH_MODE) ?? 'required',
          scopes: meta(REQUIRED_SCOPES),
          schema: meta(RESPONSE_SCHEMA) !== undefined || meta(SKIP_REDACTION) !== undefined,
          dto: meta(RESPONSE_SCHEMA)?.dto,
          session: meta(SESSION_ACCESS) !== undefined,
          ...argsOf(cls, name),
        });
      }
    }
  }
  return routes;
}

/** Whether a handler takes the query string (a DTO, or @NoQuery to refuse any) and whether it writes the reply itself. */
function argsOf(cls: object, name: string): { readsQuery: boolean; readsBody: boolean; rawReply: boolean } {
  const args = Object.keys((Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, name) ?? {}) as object);
  const has = (type: RouteParamtypes) => args.some((k) => k.split(':')[0] === String(type));
  return {
    readsQuery: has(RouteParamtypes.QUERY),
    readsBody: has(RouteParamtypes.BODY),
    rawReply: has(RouteParamtypes.RESPONSE),
  };
}

describe('route declarations (walks every registered route)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('finds the routes', () => {
    expect(routesOf(app).length).toBeGreaterThan(5);
  });

  it('every authenticated route declares its scopes, and only known scopes', () => {
    const undeclared = routesOf(app)
      .filter((r) => r.mode === 'required' && r.scopes === undefined)
      .map((r) => r.route);
    expect(undeclared).toEqual([]);
    for (const r of routesOf(app)) for (const s of r.scopes ?? []) expect(SCOPES).toContain(s);
  });

  it('every GET route reads its query string through a DTO or refuses one with @NoQuery (unknown parameters are a 400)', () => {
    expect(
      routesOf(app)
        // health probes: a load balancer's cache-busting parameter must not fail a probe
        .filter((r) => r.route.startsWith('GET ') && !r.readsQuery && !r.rawReply && !r.route.startsWith('GET /health'))
        .map((r) => r.route),
    ).toEqual([]);
  });

  it('every POST, PATCH and PUT route reads its body through a DTO or refuses one with @NoBody (unknown members are a 400)', () => {
    expect(
      routesOf(app)
        .filter((r) => /^(POST|PATCH|PUT) /.test(r.route) && !r.readsBody && !r.rawReply)
        .map((r) => r.route),
    ).toEqual([]);
  });

  it('every authenticated route declares a response schema (redaction)', () => {
    expect(
      routesOf(app)
        .filter((r) => r.mode === 'required' && !r.schema)
        .map((r) => r.route),
    ).toEqual([]);
  });

  it('no two response schema classes share a name (OpenAPI components, MCP output schemas)', () => {
    const byName = new Map<string, Set<Class>>();
    const visit = (cls: Class) => {
      const names = byName.get(cls.name) ?? new Set<Class>();
      if (names.has(cls)) return;
      names.add(cls);
      byName.set(cls.name, names);
      for (const raw of (Reflect.getMetadata('swagger/apiModelPropertiesArray', cls.prototype) ?? []) as string[]) {
        const meta = Reflect.getMetadata('swagger/apiModelProperties', cls.prototype, raw.slice(1)) ?? {};
        let t = meta.type;
        if (typeof t === 'function' && !t.prototype) t = t();
        if (Array.isArray(t)) t = t[0];
        if (typeof t === 'function' && Reflect.getMetadata('swagger/apiModelPropertiesArray', t.prototype)) visit(t);
      }
    };
    for (const r of routesOf(app)) if (r.dto) visit(r.dto);
    const clashes = [...byName.entries()].filter(([, set]) => set.size > 1).map(([name]) => name);
    expect(clashes).toEqual([]);
  });

  it('only health, calculators, the public MCP server, console sign-in/sign-up/invitations/password reset and the OAuth endpoints are reachable without a key', () => {
    const open = routesOf(app)
      .filter((r) => r.mode !== 'required')
      .map((r) => r.route);
    for (const route of open) {
      expect(route).toMatch(
        /^(GET \/health(\/ready)?|POST \/api\/v1\/calc\/[a-z-]+|(POST|GET|DELETE) \/api\/mcp\/public(\/mcp)?|GET \/\.well-known\/oauth-(protected-resource(\/api\/mcp)?|authorization-server)|GET \/oauth\/authorize|POST \/oauth\/(token|revoke|register)|POST \/api\/v1\/console\/(sign-in|sign-up|invitations\/:token\/accept|password-reset(\/:token)?)|GET \/api\/v1\/console\/(invitations\/:token|sign-up|password-reset(\/:token)?))$/,
      );
    }
  });

  it('session routes: the fund read API, propose routes, calculators and MCP stay key-only', () => {
    const session = routesOf(app)
      .filter((r) => r.session)
      .map((r) => r.route);
    expect(session.length).toBeGreaterThan(15);
    for (const route of session) expect(route).not.toMatch(/\/api\/v1\/fund\/|\/api\/v1\/calc\/|\/api\/mcp\//);
  });

  it('every @SessionAccess route refuses a state-changing request that lacks the CSRF token or comes from another origin', async () => {
    const p = await person(app, null, null);
    const targets = routesOf(app).filter((r) => r.session && !r.route.startsWith('GET '));
    expect(targets.length).toBeGreaterThan(10);
    for (const r of targets) {
      const [method, path] = r.route.split(' ');
      const url = path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const base = { host: HOST, cookie: p.session.cookie };
      const noToken = await call(app, method as 'POST', url, { body: {}, headers: { ...base, origin: ORIGIN } });
      const foreign = await call(app, method as 'POST', url, {
        body: {},
        headers: { ...base, origin: 'https://evil.example', 'x-csrf-token': p.session.csrf },
      });
      const wrongToken = await call(app, method as 'POST', url, {
        body: {},
        headers: { ...base, origin: ORIGIN, 'x-csrf-token': `${p.session.csrf.slice(1)}x` },
      });
      // no Origin header: only a browser's Sec-Fetch-Site: same-origin stands in for it
      const noOrigin = await call(app, method as 'POST', url, {
        body: {},
        headers: { ...base, 'x-csrf-token': p.session.csrf, 'sec-fetch-site': 'cross-site' },
      });
      const answers = [noToken, foreign, wrongToken, noOrigin];
      expect({
        route: r.route,
        status: answers.map((a) => a.status),
        code: answers.map((a) => a.json?.code),
      }).toEqual({ route: r.route, status: [403, 403, 403, 403], code: Array(4).fill('csrf_failed') });
    }
  });

  it('the public routes that set a session cookie or a password (sign-in, sign-up, accepting an invitation, password reset) refuse another origin or none', async () => {
    const p = await person(app, null, null);
    const bodies: Record<string, unknown> = {
      'POST /api/v1/console/sign-in': { email: p.email, password: PASSWORD },
      'POST /api/v1/console/sign-up': {
        email: `${uniqueName('su')}@example.com`,
        displayName: 'Someone',
        password: PASSWORD,
      },
      'POST /api/v1/console/invitations/:token/accept': { displayName: 'Someone', password: PASSWORD },
      'POST /api/v1/console/password-reset': { email: p.email },
      'POST /api/v1/console/password-reset/:token': { password: PASSWORD },
    };
    const targets = routesOf(app).filter((r) => r.mode !== 'required' && r.route.startsWith('POST /api/v1/console/'));
    expect(targets.map((r) => r.route).sort()).toEqual(Object.keys(bodies).sort());
    for (const r of targets) {
      const [method, path] = r.route.split(' ');
      const url = path.replace(':token', 'x'.repeat(43));
      const foreign = await call(app, method as 'POST', url, {
        body: bodies[r.route],
        headers: { host: HOST, origin: 'https://evil.example' },
      });
      const none = await call(app, method as 'POST', url, { body: bodies[r.route], headers: { host: HOST } });
      expect({
        route: r.route,
        status: [foreign.status, none.status],
        code: [foreign.json?.code, none.json?.code],
      }).toEqual({ route: r.route, status: [403, 403], code: ['csrf_failed', 'csrf_failed'] });
    }
  });
});
