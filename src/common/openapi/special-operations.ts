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
  op.responses = {
    200: { description: 'The JSON-RPC response', content: json('JsonRpcResponse') },
    202: { description: 'A notification was accepted (no body)' },
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
