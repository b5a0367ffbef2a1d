/**
 * Transports for `gantry mcp`: stdio (default; stdio-transport.ts) and Streamable HTTP on 127.0.0.1
 * (http-server.ts). docs/reliability.md describes how sessions end and how protocol errors are
 * answered.
 */
import type { Readable, Writable } from 'node:stream';
import { createGantryMcpServer, type GantryMcpServerOptions } from './gantry-mcp-server.js';
import { endRuntimeSession } from './session-end.js';
import { GantryStdioTransport } from './stdio-transport.js';

export { type HttpMcpServer, type HttpServeOptions, serveHttp } from './http-server.js';

export interface StdioServeOptions {
  input?: Readable;
  output?: Writable;
  /** Longest accepted message (one line) in bytes. */
  maxMessageBytes?: number;
  /** Aborting it ends the session as end of input does (the CLI aborts it on SIGTERM/SIGINT/SIGHUP). */
  signal?: AbortSignal;
}

/**
 * Serves one session over stdin/stdout until the client closes stdin (or `signal` aborts). On the
 * way out, the running calls are aborted (the server aborts every request in flight when its
 * transport closes) and the session's background tasks are stopped. Resolves once that is done.
 */
export async function serveStdio(
  options: GantryMcpServerOptions,
  stdio: StdioServeOptions = {},
): Promise<void> {
  const { server, runtime } = createGantryMcpServer(options);
  const transport = new GantryStdioTransport(stdio);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  const onAbort = (): void => void transport.close();
  stdio.signal?.addEventListener('abort', onAbort, { once: true });
  await server.connect(transport);
  if (stdio.signal?.aborted) onAbort();
  await closed;
  stdio.signal?.removeEventListener('abort', onAbort);
  await endRuntimeSession(runtime);
}
