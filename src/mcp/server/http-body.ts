/**
 * Request bodies and error answers of the Streamable HTTP transport of `gantry mcp`
 * (docs/reliability.md "Protocol errors"). A body is read to its end even when it is too large or
 * not JSON, so the answer (413 or 400, with a JSON-RPC error) reaches the client and the keep-alive
 * connection stays usable; bytes past the limit are counted and dropped, never kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Default largest request body, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The outcome of reading a body: the parsed JSON (undefined for an empty body) or why it was refused. */
export type BodyResult =
  | { kind: 'ok'; value: unknown }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'malformed'; message: string };

/** Reads the whole body (see the module comment). Rejects only when the connection fails. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const chunk = c as Buffer;
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
    else if (chunks.length) chunks.length = 0;
  }
  if (size > maxBytes) return { kind: 'too-large', bytes: size };
  const text = Buffer.concat(chunks, size).toString('utf8');
  if (text.trim() === '') return { kind: 'ok', value: undefined };
  try {
    return { kind: 'ok', value: JSON.parse(text) };
  } catch (error) {
    return { kind: 'malformed', message: (error as Error).message };
  }
}

/** JSON-RPC error codes used in HTTP answers. */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
/** Server-defined (implementation range): not authorised, unknown session, over capacity. */
export const JSONRPC_SERVER_ERROR = -32000;

/** Sends `status` with a JSON-RPC error body (id null: the request could not be read or accepted). */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
