import { randomBytes } from 'node:crypto';

/**
 * MCP tool calls run the REST route in-process. The inner request carries this header so the
 * activity log can record the tool name; the per-process nonce means an outside caller cannot fake it.
 */
export const MCP_TOOL_HEADER = 'x-fundgate-mcp-tool';
const NONCE = randomBytes(16).toString('hex');

export function toolHeaderValue(tool: string): string {
  return `${NONCE}:${tool}`;
}

export function toolFromHeader(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string' || !value.startsWith(`${NONCE}:`)) return null;
  return value.slice(NONCE.length + 1);
}
