/**
 * The stdio transport of `gantry mcp`: newline-delimited JSON-RPC on stdin/stdout (MCP
 * "Transports", stdio), with the answers a client needs when its input is wrong
 * (docs/reliability.md "Protocol errors"):
 *
 * - a line that is not JSON → `-32700` (parse error), id null;
 * - JSON that is not a JSON-RPC 2.0 message (no `"jsonrpc": "2.0"`, an array, a number, an object
 *   id) → `-32600` (invalid request), with the message's id when it has a usable one;
 * - a request of a method the server handles whose params do not fit (`tools/call` without params)
 *   → `-32602` (invalid params), with its id;
 * - a line longer than `maxMessageBytes` → `-32600` naming the limit; the line is skipped as it
 *   streams in (never held in memory whole) and the session goes on. Its id is taken from the start
 *   of the line when it comes before the params.
 *
 * End of input (the client closed stdin, as the SDK client's `close()` does), a closed or broken
 * stdout, or `close()` all close the transport once: `onclose` fires, and the server above aborts
 * its running calls.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** Default largest message (one line), in bytes. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Bytes kept from the start of an oversized line, to find its id. */
const PREFIX_BYTES = 4096;

/** Params schemas of the requests this server handles, checked before the SDK sees them. */
const REQUEST_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  initialize: InitializeRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

type Id = string | number | null;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A `tools/call` whose params are only a string `name` and an object `arguments` (or none): it
 * fits CallToolRequestSchema, so the schema's parse is left to the SDK server, which runs it on
 * every call anyway. Anything else (other params keys, `_meta`, a missing name) is checked here.
 */
function isPlainToolCall(message: { method: string; params?: unknown }): boolean {
  if (message.method !== 'tools/call' || !isRecord(message.params)) return false;
  const params = message.params;
  let keys = 0;
  for (const key in params) {
    if (key !== 'name' && key !== 'arguments') return false;
    keys++;
  }
  return (
    typeof params.name === 'string' &&
    (params.arguments === undefined || isRecord(params.arguments)) &&
    keys === ('arguments' in params ? 2 : 1)
  );
}

/**
 * A JSON-RPC request envelope that JSONRPCMessageSchema accepts without question: only the keys
 * `jsonrpc` ("2.0"), `id` (a string or an integer), `method` (a string) and `params` (absent, or an
 * object without `_meta`). Such a message skips the envelope's schema parse (the SDK server checks
 * the shape again, and a `tools/call`'s params are parsed by the SDK on every call); anything else
 * (notifications, responses, `_meta`, extra keys, a null `params`) goes through the schema, so its
 * error reply stays the same. Exported for the test that holds it to the schema.
 */
export function isPlainRequest(value: Record<string, unknown>): boolean {
  for (const key in value)
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  const id = value.id;
  const params = value.params;
  return (
    value.jsonrpc === '2.0' &&
    (typeof id === 'string' || Number.isSafeInteger(id)) &&
    typeof value.method === 'string' &&
    (!('params' in value) || (isRecord(params) && !('_meta' in params)))
  );
}

export interface StdioTransportOptions {
  input?: Readable;
  output?: Writable;
  /** Longest accepted line in bytes (default {@link DEFAULT_MAX_MESSAGE_BYTES}). */
  maxMessageBytes?: number;
}

function usableId(value: unknown): Id {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : null;
}

/** The id of a (cut) JSON-RPC text when it appears before its params; null otherwise. */
export function idFromPrefix(prefix: string): Id {
  const params = prefix.indexOf('"params"');
  const head = params === -1 ? prefix : prefix.slice(0, params);
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)/.exec(head);
  if (!m) return null;
  try {
    return usableId(JSON.parse(m[1] as string));
  } catch {
    return null;
  }
}

function zodSummary(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(message)'}: ${i.message}`)
    .join('; ');
}

/** Newline-delimited JSON-RPC over a pair of streams (see the module comment). */
export class GantryStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly maxBytes: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while an oversized line is being skipped: its start and its length so far. */
  private skipping: { prefix: string; bytes: number } | undefined;
  private closed = false;

  constructor(options: StdioTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (;;) {
      const nl = buf.indexOf(0x0a);
      const piece = nl === -1 ? buf : buf.subarray(0, nl);
      this.take(piece);
      if (nl === -1) return;
      this.endLine();
      buf = buf.subarray(nl + 1);
    }
  };

  private readonly onEnd = (): void => {
    if (this.size > 0 || this.skipping) this.endLine(); // a last message without its newline
    void this.close();
  };

  private readonly onOutputError = (): void => {
    void this.close();
  };

  /** Adds bytes of the current line, switching to skipping when it passes the limit. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      return;
    }
    if (this.size + piece.length <= this.maxBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const head = Buffer.concat([...this.parts, piece.subarray(0, PREFIX_BYTES)]).subarray(0, PREFIX_BYTES);
    this.skipping = { prefix: head.toString('utf8'), bytes: this.size + piece.length };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping) {
      const { prefix, bytes } = this.skipping;
      this.skipping = undefined;
      this.reply(
        idFromPrefix(prefix),
        -32600,
        `Request too large: this message is ${bytes} bytes, over the ${this.maxBytes}-byte limit of this server; it was skipped.`,
      );
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    this.handleLine(line);
  }

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reply(null, -32700, `Parse error: the message is not valid JSON (${(error as Error).message}).`);
      return;
    }
    if (Array.isArray(value)) {
      this.reply(
        null,
        -32600,
        'Invalid Request: batches (JSON arrays) are not supported; send one message per line.',
      );
      return;
    }
    if (isRecord(value) && isPlainRequest(value)) {
      const message = value as JSONRPCMessage & { id: string | number; method: string; params?: unknown };
      if (isPlainToolCall(message)) {
        this.onmessage?.(message);
        return;
      }
    }
    const id = value && typeof value === 'object' ? usableId((value as { id?: unknown }).id) : null;
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.reply(
        id,
        -32600,
        `Invalid Request: not a JSON-RPC 2.0 message (it needs "jsonrpc": "2.0", a string "method", and a string or number "id" for a request): ${zodSummary(parsed.error)}.`,
      );
      return;
    }
    const message = parsed.data;
    if ('method' in message && 'id' in message && !isPlainToolCall(message)) {
      const schema = REQUEST_SCHEMAS[message.method];
      const checked = schema?.safeParse(message);
      if (checked && !checked.success) {
        this.reply(message.id, -32602, `Invalid params for ${message.method}: ${zodSummary(checked.error)}.`);
        return;
      }
    }
    this.onmessage?.(message);
  }

  private reply(id: Id, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(value: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const text = `${JSON.stringify(value)}\n`;
      if (this.output.write(text)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.once('close', this.onEnd);
    this.input.on('error', this.onOutputError);
    this.output.on('error', this.onOutputError);
    this.output.once('close', this.onOutputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onOutputError);
    this.output.off('error', this.onOutputError);
    this.output.off('close', this.onOutputError);
    this.input.pause();
    this.parts = [];
    this.onclose?.();
  }
}
