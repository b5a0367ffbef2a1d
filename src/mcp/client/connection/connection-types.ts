/**
 * The shapes of one MCP server connection (connection.ts): its status, the per-call options and
 * the timer limit. docs/mcp-client.md "Connections".
 */
import type { Progress } from '@modelcontextprotocol/sdk/types.js';

export type McpServerStatus = 'pending' | 'connected' | 'failed' | 'needs-approval' | 'disabled';

/** Largest delay `setTimeout` accepts (2^31 − 1 ms); larger values would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}
