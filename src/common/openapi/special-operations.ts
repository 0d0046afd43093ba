import type { DocNode } from './document-node';

/**
 * Request and response bodies of the operations whose handlers write the reply themselves (the MCP
 * servers) or return plain objects without a DTO (health): documented here so the contract is whole.
 */

const JSON_RPC_ID = { type: ['string', 'integer', 'null'] };

const SCHEMAS: DocNode = {
  JsonRpcRequest: {
    type: 'object',
    description:
      'A JSON-RPC 2.0 request or notification (no id): initialize, notifications/initialized, ping, tools/list, tools/call.',
    required: ['jsonrpc', 'method'],
    properties: { jsonrpc: { const: '2.0' }, id: JSON_RPC_ID, method: { type: 'string' }, params: { type: 'object' } },
  },
  JsonRpcResponse: {
    type: 'object',
    description: 'A JSON-RPC 2.0 response: `result` or `error` (tool failures are results with isError).',
    required: ['jsonrpc'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: JSON_RPC_ID,
      result: { type: 'object' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
      },
    },
  },
  HealthLiveDto: {
    type: 'object',
    required: ['status'],
    additionalProperties: false,
    properties: { status: { const: 'ok' } },
  },
  HealthReadyDto: {
    type: 'object',
    required: ['status', 'checks'],
    additionalProperties: false,
    properties: {
      status: { const: 'ready' },
      checks: {
        type: 'object',
        required: ['postgresql', 'redis'],
        additionalProperties: false,
        properties: { postgresql: { const: 'up' }, redis: { const: 'up' } },
      },
    },
  },
};

const json = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rpcResponse = () => ({ $ref: '#/components/schemas/JsonRpcResponse' });
/** One JSON-RPC response, or a batch's (JSON-RPC batches exist in MCP 2025-03-26 and 2024-11-05). */
const rpcAnswers = () => ({
  'application/json': { schema: { oneOf: [rpcResponse(), { type: 'array', minItems: 1, items: rpcResponse() }] } },
});

function mcpOperation(op: DocNode): void {
  op.requestBody = { required: true, content: json('JsonRpcRequest') };
  op.parameters = [
    ...(op.parameters ?? []),
    {
      name: 'MCP-Protocol-Version',
      in: 'header',
      required: false,
      description: 'The negotiated protocol version (after initialize).',
      schema: { type: 'string' },
    },
  ];
  // RateLimit: of the tool's route policy for a tool call, of fund-minute for any other message
  const rateHeaders = { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimit-Policy') };
  op.responses = {
    200: {
      description:
        'The JSON-RPC response (an array for a batch); Retry-After when every answer is a tool call refused for now',
      headers: { ...rateHeaders, 'Retry-After': header('Retry-After') },
      content: rpcAnswers(),
    },
    202: { description: 'A notification was accepted (no body)', headers: rateHeaders },
    429: {
      description:
        'Every message of the request was refused by its rate limit: JSON-RPC errors (code -32000) whose data carries code rate_limited, status, detail and retryAfter',
      headers: {
        ...rateHeaders,
        'Retry-After': header('Retry-After'),
        'X-Request-Id': header('X-Request-Id'),
        'Cache-Control': header('Cache-Control'),
      },
      content: rpcAnswers(),
    },
  };
}
export function describeSpecialOperations(doc: DocNode): void {
  Object.assign(doc.components.schemas, SCHEMAS);
  for (const path of Object.keys(doc.paths)) {
    if (/^\/api\/mcp(\/|$)/.test(path) && doc.paths[path].post) mcpOperation(doc.paths[path].post);
  }
  const live = doc.paths['/health']?.get;
  if (live) live.responses['200'] = { description: 'The process answers', content: json('HealthLiveDto') };
  const ready = doc.paths['/health/ready']?.get;
  if (ready)
    ready.responses['200'] = { description: 'PostgreSQL and Redis reachable', content: json('HealthReadyDto') };
}
