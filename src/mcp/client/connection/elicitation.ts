/**
 * Elicitation (MCP `elicitation/create`) for one server connection (connection.ts): what the host
 * is asked, its answer, and how a server's request is answered. docs/mcp-client.md "Connections".
 */
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** What the host is asked when a server requests input from the user (MCP `elicitation/create`). */
export interface ElicitationRequest {
  serverName: string;
  message: string;
  /** `form`: fill `requestedSchema`; `url`: open `url` (out-of-band). */
  mode: 'form' | 'url';
  requestedSchema?: Record<string, unknown>;
  url?: string;
  /** URL mode: the server's id for this elicitation (MCP `elicitationId`). */
  elicitationId?: string;
}

/** The host's answer (the MCP `ElicitResult`). */
export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** Routes an elicitation to the person, like a permission ask. Throwing counts as `decline`. */
export type ElicitationHandler = (
  request: ElicitationRequest,
  signal: AbortSignal,
) => Promise<ElicitationAnswer>;

/**
 * Answers a server's `elicitation/create` (the request's params) through `handler`: no handler,
 * a throw or an unknown action is `decline`; `accept` keeps the content.
 */
export async function answerElicitation(
  handler: ElicitationHandler | undefined,
  serverName: string,
  p: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ElicitResult> {
  if (!handler) return { action: 'decline' };
  const mode = p.mode === 'url' ? 'url' : 'form';
  try {
    const answer = await handler(
      {
        serverName,
        message: typeof p.message === 'string' ? p.message : '',
        mode,
        ...(mode === 'form' && p.requestedSchema && typeof p.requestedSchema === 'object'
          ? { requestedSchema: p.requestedSchema as Record<string, unknown> }
          : {}),
        ...(mode === 'url' && typeof p.url === 'string' ? { url: p.url } : {}),
        ...(mode === 'url' && typeof p.elicitationId === 'string' ? { elicitationId: p.elicitationId } : {}),
      },
      signal,
    );
    if (answer?.action === 'accept')
      return answer.content ? { action: 'accept', content: answer.content } : { action: 'accept' };
    return { action: answer?.action === 'cancel' ? 'cancel' : 'decline' };
  } catch {
    return { action: 'decline' };
  }
}
