import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createValidationPipe } from './common/errors/validation';
import { sharedJson } from './common/http/shared-json';
import { installRouteRedaction } from './common/redaction/redaction.interceptor';
import { finalizeDocument } from './common/openapi/contract';
import { CorsPolicy, registerCors } from './common/http/cors';
import { hasEtag, registerHttpSemantics } from './common/http/http-semantics';
import {
  clientErrorHandler,
  frameworkErrors,
  installJsonBodyParser,
  firstRequestHook,
} from './common/http/fastify-hardening';
import { installLeanAsyncResourceBind } from './common/http/lean-async-bind';
import { sanitizeForDisplay } from './common/validation/safe-text';
import { JsonLogger } from './common/logging/json-logger';
import { AppModule } from './app.module';
import { type AppConfig } from './config/config';
import { ActivityLogWriter } from './usage/activity-log.writer';
import { McpCatalog } from './mcp/mcp.catalog';
import { registerWebPages } from './web/web-pages';
import { installOAuthFormParser } from './oauth/form-body';
import { CalculatorPool, registerEarlyShedding } from './calculators/calculator-pool';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP application exactly as production runs it (main.ts and the e2e tests share this). */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  installLeanAsyncResourceBind(); // Node 20's bind costs ≈ 8 µs per request with a body (DEP0172 wrappers)
  const adapter = createAdapter(config);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    logger: new JsonLogger(config.logLevel),
    bodyParser: false, // no urlencoded parser: JSON (Fastify's own parser) is the only body we read
  });
  const fastify = app.getHttpAdapter().getInstance();
  installRouteRedaction(app); // before routes, Swagger and the MCP catalog read the handlers

  // JSON is the only body we read; anything else is a 415.
  fastify.removeContentTypeParser(['text/plain']);
  installJsonBodyParser(fastify);
  fastify.setReplySerializer((payload) => sharedJson(payload)); // a cached answer's JSON is produced once
  installOAuthFormParser(fastify); // the OAuth token and revocation endpoints only
  logActivity(fastify, app.get(ActivityLogWriter));

  await registerHttpSemantics(fastify);
  registerCors(fastify, new CorsPolicy(config));
  registerWebPages(fastify, config.webDistDir);
  registerEarlyShedding(fastify, app.get(CalculatorPool));
  app.useGlobalPipes(createValidationPipe());
  const document = openApiDocument(app);
  finalizeDocument(document, { serverUrl: config.publicBaseUrl, etag: hasEtag, rateLimits: config.rateLimits });
  app.get(McpCatalog).load(document);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
  });
  app.enableShutdownHooks();
  await app.init();
  return app;
}

/** Fastify as production runs it: body limit, trusted proxies, request ids, problem+json for framework errors. */
function createAdapter(config: AppConfig): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    logger: false,
    return503OnClosing: true,
    // Errors raised below the app (router, Node's HTTP parser) answer problem+json too.
    frameworkErrors,
    clientErrorHandler,
    http: { requireHostHeader: false }, // Node's check answers a bare 400: firstRequestHook answers a problem
  });
  adapter.getInstance().addHook('onRequest', firstRequestHook); // request id and Host, before any other work
  return adapter;
}

/**
 * Every answered request goes to the activity log: who, which route, status and duration; an MCP
 * request writes a row per tool call it made, with the tool's name and its own status (the HTTP
 * answer is 200 whatever the tools did).
 */
function logActivity(fastify: FastifyInstance, activity: ActivityLogWriter): void {
  fastify.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const calls = req.mcpCalls;
    if (calls === undefined) logCall(activity, req, reply, null, reply.statusCode);
    else for (const c of calls) logCall(activity, req, reply, c.tool, c.status);
    done();
  });
}

function logCall(
  activity: ActivityLogWriter,
  req: FastifyRequest,
  reply: FastifyReply,
  tool: string | null,
  status: number,
): void {
  const p = req.principal;
  const ua = req.headers['user-agent'];
  activity.record({
    occurredAt: new Date(),
    requestId: String(req.id),
    keyId: p?.keyId ?? null,
    accountId: p?.accountId ?? null,
    userId: p?.userId ?? null,
    fundId: p?.fund?.id ?? null,
    method: req.method,
    route: req.routeOptions?.url ?? '(unmatched)',
    tool,
    status,
    durationMs: reply.elapsedTime,
    clientIp: req.ip ?? null,
    userAgent: typeof ua === 'string' ? sanitizeForDisplay(ua, 200) : null,
  });
}

/** The OpenAPI document of every route (finalized, published and loaded into the MCP catalog by createApp). */
function openApiDocument(app: NestFastifyApplication): OpenAPIObject {
  return SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('fundgate')
      .setDescription(
        'Shadow-NAV fund data, maker-checker proposals, calculators, MCP and webhooks. Errors are RFC 9457 problem+json.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'svc_dk_ API key' }, 'bearer')
      .build(),
  );
}
