/**
 * An MCP transport to a server that lives in the host process (the Agent SDK's in-process
 * servers): each JSON-RPC message the client sends is handed to `exchange` (for `gantry -p`, an
 * `mcp_message` control request to the SDK); the answer to a request comes back as the server's
 * message. Notifications are sent and their answers dropped. The server cannot start requests of
 * its own over this channel (no sampling, no elicitation, no list_changed), which is what the
 * control protocol allows (docs/cli-print.md "Control protocol").
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class ExchangeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  constructor(private readonly exchange: (message: unknown) => Promise<unknown>) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the in-process MCP server connection is closed');
    const isRequest = isObj(message) && 'method' in message && 'id' in message;
    let answer: unknown;
    try {
      answer = await this.exchange(message);
    } catch (error) {
      if (!isRequest) return;
      // The host could not answer: the request fails with the host's reason.
      const id = (message as { id: string | number }).id;
      this.deliver({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: (error as Error).message || 'the host did not answer' },
      });
      return;
    }
    if (!isRequest) return;
    if (!isObj(answer) || answer.jsonrpc !== '2.0') {
      const id = (message as { id: string | number }).id;
      this.deliver({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: 'the host sent no JSON-RPC answer' },
      });
      return;
    }
    this.deliver(answer as JSONRPCMessage);
  }

  private deliver(message: JSONRPCMessage): void {
    // Answer on a later tick: the client registers its response handler after `send` resolves.
    queueMicrotask(() => {
      if (!this.closed) this.onmessage?.(message);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
