/**
 * The HTTP part both fake model servers share: a `node:http` server on 127.0.0.1 (port 0), request
 * recording, script and route resolution, and an SSE writer with the stream knobs of
 * `fake-model-script.ts` (delays, stall, drop, in-stream error).
 *
 * Every request is recorded before it is answered (`requests`), with whether the client closed the
 * connection before the reply ended (`clientClosed`: an abort reached the server). `close()` ends
 * open connections (stalled replies included) and stops the server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Usage } from '../core/messages.js';
import type {
  FakeReply,
  FakeRoute,
  FakeStreamKnobs,
  ScriptEntry,
  ScriptRequest,
} from './fake-model-script.js';

/** A request as the fake saw it, plus what it answered. */
export interface RecordedRequest extends ScriptRequest {
  /** Which API the path addressed (`messages`, `count_tokens`, `chat`, `responses`, `other`). */
  endpoint: string;
  /** The reply sent (model requests only). */
  reply?: FakeReply;
  /** The route that answered, when one did. */
  route?: string;
  /**
   * Usage the fake reported (model requests that got a message), in Messages API terms; the
   * OpenAI fake maps `cached_tokens` to `cache_read_input_tokens` and the uncached rest to
   * `input_tokens`.
   */
  usage?: Usage;
  /** True when the client closed the connection before the reply ended. */
  clientClosed: boolean;
  /** The TCP connection it came on (1, 2, … in order of connection): equal ids mean keep-alive reuse. */
  connection: number;
}

export interface FakeHttpHandlers {
  /** Classifies a path (e.g. `/v1/messages` → `messages`); `other` paths get `notFound`. */
  endpointOf(path: string): string;
  /** Answers a request (script resolution is done by `next`). */
  handle(
    request: RecordedRequest,
    res: ServerResponse,
    next: () => Promise<{ reply: FakeReply; route?: string }>,
  ): Promise<void>;
}

export interface FakeScriptOptions {
  script?: ScriptEntry[];
  routes?: FakeRoute[];
}

export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private readonly script: ScriptEntry[];
  private readonly routes: { route: FakeRoute; used: number }[];
  private readonly sockets = new Set<Socket>();
  private readonly socketIds = new WeakMap<Socket, number>();
  private nextSocket = 1;
  private server: Server | undefined;
  private port = 0;
  private nextIndex = 0;

  constructor(
    options: FakeScriptOptions,
    private readonly handlers: FakeHttpHandlers,
  ) {
    this.script = [...(options.script ?? [])];
    this.routes = (options.routes ?? []).map((route) => ({ route, used: 0 }));
  }

  /** `http://127.0.0.1:<port>` (no trailing slash). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      void this.onRequest(req, res);
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      this.socketIds.set(socket, this.nextSocket++);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Appends entries to the main script. */
  enqueue(...entries: ScriptEntry[]): void {
    this.script.push(...entries);
  }

  /** Adds a route (checked after the routes given at start). */
  addRoute(route: FakeRoute): void {
    this.routes.push({ route, used: 0 });
  }

  /** Main-script entries not consumed yet. */
  get remaining(): number {
    return this.script.length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    const recorded: RecordedRequest = {
      index: this.nextIndex++,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
      rawBody,
      endpoint: this.handlers.endpointOf(url.pathname),
      clientClosed: false,
      connection: this.socketIds.get(req.socket) ?? 0,
    };
    this.requests.push(recorded);
    res.on('close', () => {
      if (!res.writableFinished) recorded.clientClosed = true;
    });
    try {
      await this.handlers.handle(recorded, res, () => this.nextReply(recorded));
    } catch (error) {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'api_error', message: `fake server: ${String(error)}` },
          }),
        );
      } else {
        res.destroy();
      }
    }
  }

  private async nextReply(request: RecordedRequest): Promise<{ reply: FakeReply; route?: string }> {
    for (const entry of this.routes) {
      const { route } = entry;
      if (!route.when(request)) continue;
      const name = route.name ?? 'route';
      if (typeof route.script === 'function') return { reply: await route.script(request), route: name };
      const next = route.script[entry.used++];
      if (!next) return { reply: exhausted(`the fake's route "${name}" has no reply left`), route: name };
      return { reply: typeof next === 'function' ? await next(request) : next, route: name };
    }
    const next = this.script.shift();
    if (!next) return { reply: exhausted("the fake's script has no reply left") };
    return { reply: typeof next === 'function' ? await next(request) : next };
  }
}

/** A non-retryable 400, so a test that runs past its script fails at once and says why. */
function exhausted(message: string): FakeReply {
  return { type: 'http_error', status: 400, errorType: 'invalid_request_error', message };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One SSE event: `event:` line (optional), `data:` line, blank line. */
export interface SseEvent {
  event?: string;
  data: string;
}

export function sseFrame(e: SseEvent): string {
  return `${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`;
}

/**
 * Writes `events` as an SSE response with the knobs applied. `errorEvent` is the frame sent for
 * `errorAfterEvents` (the two APIs frame errors differently). Resolves when the response ended,
 * stalled (the connection stays open until the client or `close()` ends it) or was dropped.
 */
export async function writeSse(
  res: ServerResponse,
  events: readonly SseEvent[],
  knobs: FakeStreamKnobs,
  errorEvent: (errorType: string, message: string) => SseEvent,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...extraHeaders,
    ...knobs.headers,
  });
  res.flushHeaders();
  let sent = 0;
  let flushed: Promise<void> = Promise.resolve();
  for (const e of events) {
    if (knobs.stallAfterEvents !== undefined && sent >= knobs.stallAfterEvents) return;
    if (knobs.dropAfterEvents !== undefined && sent >= knobs.dropAfterEvents) {
      // Let the events already written reach the client, then cut the connection.
      await flushed;
      res.socket?.destroy();
      return;
    }
    if (knobs.errorAfterEvents && sent >= knobs.errorAfterEvents.events) {
      const { errorType, message } = knobs.errorAfterEvents;
      res.end(sseFrame(errorEvent(errorType, message ?? `scripted ${errorType}`)));
      return;
    }
    if (res.destroyed) return;
    if (knobs.delayMs && sent > 0) await sleep(knobs.delayMs);
    flushed = new Promise((resolve) => res.write(sseFrame(e), () => resolve()));
    sent++;
  }
  if (knobs.stallAfterEvents !== undefined && sent >= knobs.stallAfterEvents) return;
  if (knobs.endDelayMs) {
    await flushed;
    await sleep(knobs.endDelayMs);
  }
  if (!res.destroyed) res.end();
}
