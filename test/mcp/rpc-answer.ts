/**
 * A JSON-RPC answer from the MCP endpoints as these tests read it: each test reads the member its
 * request must produce (result or error), so both are declared; which result members exist depends
 * on the method (initialize, tools/list, tools/call, ping).
 */
export interface RpcAnswer {
  jsonrpc: '2.0';
  id: string | number | null;
  result: {
    protocolVersion: string;
    capabilities: { tools?: unknown };
    structuredContent: Record<string, unknown>;
    tools: { name: string }[];
  };
  error: { code: number; message: string };
}
