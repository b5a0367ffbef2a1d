/**
 * One MCP server of a session: connects with the official SDK client, keeps the server's tool list
 * current, answers the server's requests (roots, elicitation), runs calls with a timeout, progress
 * and cancellation, reconnects remote servers, and shuts down without leaving processes behind.
 * docs/mcp-client.md "Connections".
 *
 * Status (what `system/init.mcp_servers` and `gantry mcp list` show): `pending` while connecting or
 * reconnecting, `connected`, `failed` (with `error`), plus `needs-approval` and `disabled` for
 * servers the manager does not connect.
 *
 * - Start-up: `connect()` never rejects; it races the SDK handshake against `startupTimeoutMs`
 *   (`MCP_TIMEOUT`, default 30 s). A server that fails or times out is closed (its process tree
 *   killed) and reported `failed` with the reason and the end of its stderr.
 * - Tools: `tools/list` (every page) after connecting and on `notifications/tools/list_changed`; a
 *   refresh that fails keeps the previous list. A call during which the server announced a change
 *   returns after the refresh. `onToolsChanged` is told after each change.
 * - Calls: per-call timeout (`toolTimeoutMs`: the entry's `timeout`, else `MCP_TOOL_TIMEOUT`);
 *   an aborted signal makes the SDK send `notifications/cancelled`; progress notifications reach
 *   `onProgress`; a malformed result fails the call, naming what is wrong (tools/result-shape.ts).
 * - Loss: a remote server (http, sse) whose connection drops is reconnected with exponential
 *   backoff (1 s, 2 s, 4 s … up to `reconnectAttempts`, default 5); a stdio server that exits is
 *   `failed` and not restarted (Claude Code does the same). Calls in flight fail with the reason.
 * - Close: collects the stdio process's descendants, closes the client (stdin end → SIGTERM →
 *   SIGKILL, in the SDK), then kills any descendant still alive, and closes the stderr log.
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  CallToolResult,
  ReadResourceResult,
  Resource,
  ServerCapabilities,
  Tool as SdkTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config/types.js';
import { McpMalformedResultError, mcpResultProblem } from '../tools/result-shape.js';
import { isConnectionLoss, messageOf, withTimeout } from './connection-errors.js';
import { type CallOptions, MAX_TIMER_MS, type McpServerStatus } from './connection-types.js';
import { answerElicitation, type ElicitationHandler } from './elicitation.js';
import { descendantPids, killAll } from './process-tree.js';
import { loadSdk, type McpSdk } from './sdk-load.js';
import { StderrLog } from './stderr-log.js';
import type { BuiltTransport, StdioSandbox } from './transports.js';

export { isConnectionLoss } from './connection-errors.js';
export { type CallOptions, MAX_TIMER_MS, type McpServerStatus } from './connection-types.js';
export type { ElicitationAnswer, ElicitationHandler, ElicitationRequest } from './elicitation.js';

export interface McpConnectionOptions {
  config: McpServerConfig;
  /** The session directory (`mcp-logs/<server>.log` goes here). */
  sessionDir: string;
  projectRoot: string;
  /** The working directories, answered to `roots/list` (absolute paths). */
  roots: () => readonly string[];
  /** Asked for elicitations; absent → every elicitation is declined. */
  elicit?: ElicitationHandler;
  /** Run a stdio server under this sandbox. */
  sandbox?: StdioSandbox;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  clientInfo: { name: string; version: string };
  /** Remote servers: reconnection attempts (default 5) and the first delay (default 1,000 ms). */
  reconnectAttempts?: number;
  reconnectInitialDelayMs?: number;
  onToolsChanged?: (connection: McpConnection) => void;
  onStatusChanged?: (connection: McpConnection) => void;
  /** Base environment for stdio servers (tests; default: the SDK's safe default set). */
  baseEnv?: Record<string, string>;
}

export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  status: McpServerStatus = 'pending';
  error: string | undefined;
  tools: readonly SdkTool[] = [];
  /** The tool-list refresh a `list_changed` started, while it runs. */
  private pendingRefresh: Promise<void> | undefined;
  serverInfo: { name: string; version: string } | undefined;
  instructions: string | undefined;
  capabilities: ServerCapabilities | undefined;
  /** Path of the stderr log (stdio servers). */
  readonly logFile: string | undefined;
  /** Reconnections done so far (remote servers). */
  reconnects = 0;

  private client: Client | undefined;
  /** Set before the first client is made (connect). */
  private sdk: McpSdk | undefined;
  private built: BuiltTransport | undefined;
  private readonly log: StderrLog | undefined;
  private closing = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;
  private readonly trackedPids = new Set<number>();

  constructor(private readonly options: McpConnectionOptions) {
    this.config = options.config;
    this.name = options.config.name;
    if (options.config.entry.type === 'stdio') {
      this.log = new StderrLog(options.sessionDir, this.name);
      this.logFile = this.log.file;
    }
  }

  /** True when this stdio server runs in the OS sandbox. */
  get sandboxed(): boolean {
    return this.options.sandbox !== undefined && this.config.entry.type === 'stdio';
  }

  get transportType(): 'stdio' | 'http' | 'sse' | 'sdk' {
    return this.config.entry.type;
  }

  /** Per-call timeout in ms (clamped to what timers accept). */
  get toolTimeoutMs(): number {
    return Math.min(this.config.entry.timeoutMs ?? this.options.toolTimeoutMs, MAX_TIMER_MS);
  }

  /** Connects (see the module comment). Resolves when connected or failed; never rejects. */
  connect(): Promise<void> {
    this.connecting ??= this.doConnect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private setStatus(status: McpServerStatus, error?: string): void {
    this.status = status;
    this.error = error;
    this.options.onStatusChanged?.(this);
  }

  private newClient({ client: { Client }, types }: McpSdk): Client {
    const { ElicitRequestSchema, ListRootsRequestSchema, ToolListChangedNotificationSchema } = types;
    const client = new Client(this.options.clientInfo, {
      capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.options
        .roots()
        .map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir })),
    }));
    client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      answerElicitation(
        this.options.elicit,
        this.name,
        request.params as Record<string, unknown>,
        extra.signal,
      ),
    );
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      const refresh = this.refreshTools().finally(() => {
        if (this.pendingRefresh === refresh) this.pendingRefresh = undefined;
      });
      this.pendingRefresh = refresh;
      await refresh;
    });
    return client;
  }

  private async doConnect(): Promise<void> {
    if (this.closing) return;
    this.setStatus('pending');
    let built: BuiltTransport;
    let sdk: McpSdk;
    try {
      sdk = await loadSdk();
      this.sdk = sdk;
      built = await sdk.transports.buildTransport(this.config.entry, {
        projectRoot: this.options.projectRoot,
        ...(this.log ? { log: this.log } : {}),
        ...(this.options.sandbox && this.config.entry.type === 'stdio'
          ? { sandbox: this.options.sandbox }
          : {}),
        ...(this.options.baseEnv ? { baseEnv: this.options.baseEnv } : {}),
      });
    } catch (error) {
      this.setStatus('failed', `could not start: ${messageOf(error)}`);
      return;
    }
    const client = this.newClient(sdk);
    this.built = built;
    this.client = client;
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = Math.min(this.options.startupTimeoutMs, MAX_TIMER_MS);
    try {
      await Promise.race([
        client.connect(built.transport, { timeout: timeoutMs }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${timeoutMs} ms (MCP_TIMEOUT)`)),
            timeoutMs,
          );
        }),
      ]);
      const pid = built.pid();
      if (pid !== undefined) this.trackedPids.add(pid);
      this.serverInfo = client.getServerVersion();
      this.instructions = client.getInstructions();
      this.capabilities = client.getServerCapabilities();
      this.tools = await this.listAllTools(client);
    } catch (error) {
      clearTimeout(timer);
      const tail = this.log?.recent().trim();
      await this.teardown();
      if (!this.closing)
        this.setStatus('failed', `${messageOf(error)}${tail ? `; stderr: ${tail.slice(-500)}` : ''}`);
      return;
    }
    clearTimeout(timer);
    if (this.closing) {
      await this.teardown();
      return;
    }
    client.onclose = () => this.onLost(client);
    if (this.transportType !== 'stdio')
      client.onerror = (error) => {
        if (isConnectionLoss(error)) this.onLost(client);
      };
    this.setStatus('connected');
    this.options.onToolsChanged?.(this);
  }

  private async listAllTools(client: Client): Promise<SdkTool[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: SdkTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const r = await client.listTools(cursor ? { cursor } : {}, { timeout: this.options.startupTimeoutMs });
      tools.push(...r.tools);
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    return tools;
  }

  /** Re-reads the tool list (list_changed); keeps the previous list when it fails. */
  async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client || this.status !== 'connected') return;
    try {
      this.tools = await this.listAllTools(client);
    } catch {
      return;
    }
    this.options.onToolsChanged?.(this);
  }

  private onLost(client: Client): void {
    if (this.closing || client !== this.client) return;
    const tail = this.log?.recent().trim();
    void this.teardown();
    if (this.transportType === 'stdio') {
      this.setStatus('failed', `the server process exited${tail ? `; stderr: ${tail.slice(-500)}` : ''}`);
      return;
    }
    this.scheduleReconnect(1);
  }

  private scheduleReconnect(attempt: number): void {
    const max = this.options.reconnectAttempts ?? 5;
    if (attempt > max) {
      this.setStatus('failed', `connection lost; ${max} reconnection attempts failed`);
      return;
    }
    this.setStatus('pending', `connection lost; reconnecting (attempt ${attempt} of ${max})`);
    const delay = (this.options.reconnectInitialDelayMs ?? 1000) * 2 ** (attempt - 1);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closing) return;
      this.reconnects++;
      void this.doConnect().then(() => {
        if (this.status === 'failed' && !this.closing) this.scheduleReconnect(attempt + 1);
      });
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private requireClient(): Client {
    if (this.status !== 'connected' || !this.client)
      throw new Error(
        `MCP server "${this.name}" is not connected (${this.status}${this.error ? `: ${this.error}` : ''})`,
      );
    return this.client;
  }

  /**
   * Calls a tool on the server. Rejects when the server is not connected, on timeout, abort or
   * protocol error. The SDK's request is the only wait: no wrapper layers per call.
   */
  callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    let client: Client;
    try {
      client = this.requireClient();
    } catch (error) {
      return Promise.reject(error);
    }
    // A client exists only after the SDK loaded (doConnect). The SDK parses the result only as a
    // JSON-RPC result object (its full CallToolResultSchema parse cost more than the rest of the
    // client's side of a call); `checkResult` checks the shape Gantry reads (tools/result-shape.ts).
    const { ResultSchema } = (this.sdk as McpSdk).types;
    // Set, not spread: a literal with conditional spreads is built key by key (docs/mcp-client.md §8.3).
    const requestOptions: { timeout: number; signal?: AbortSignal; onprogress?: CallOptions['onProgress'] } =
      {
        timeout: this.toolTimeoutMs,
      };
    if (options.signal) requestOptions.signal = options.signal;
    if (options.onProgress) requestOptions.onprogress = options.onProgress;
    const request = client.callTool(
      { name: toolName, arguments: args },
      // Typed as the call-result schemas only; the SDK parses with whatever schema it is given.
      ResultSchema as unknown as McpSdk['types']['CallToolResultSchema'],
      requestOptions,
    ) as Promise<Record<string, unknown>>;
    if (this.transportType === 'stdio') return request.then(this.checkResult);
    return request.then(this.checkResult, (error: unknown) => {
      if (isConnectionLoss(error)) this.onLost(client);
      throw error;
    });
  }

  /**
   * A result as callers get it: a malformed one (tools/result-shape.ts) fails the call with
   * `McpMalformedResultError`; absent `content` reads as no blocks (as the SDK's own schema has
   * it). A call that made the server announce new tools (list_changed arrives before the result)
   * settles once the new list is read, so the next request already offers them. (One function per
   * connection, not one per call.)
   */
  private readonly checkResult = (
    result: Record<string, unknown>,
  ): CallToolResult | Promise<CallToolResult> => {
    const problem = mcpResultProblem(result);
    const refresh = this.pendingRefresh;
    if (problem !== undefined) {
      const error = new McpMalformedResultError(problem);
      return refresh ? refresh.then(() => Promise.reject(error)) : Promise.reject(error);
    }
    result.content ??= [];
    return refresh ? refresh.then(() => result as CallToolResult) : (result as CallToolResult);
  };

  /** Runs a request; a remote server found gone (refused, session unknown) starts the reconnection. */
  private async watch<T>(client: Client, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (this.transportType !== 'stdio' && isConnectionLoss(error)) this.onLost(client);
      throw error;
    }
  }

  /** Every resource the server lists (all pages); empty when it has no resources capability. */
  async listResources(signal?: AbortSignal): Promise<Resource[]> {
    const client = this.requireClient();
    if (!client.getServerCapabilities()?.resources) return [];
    const out: Resource[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const r = await this.watch(client, () =>
        client.listResources(cursor ? { cursor } : {}, {
          timeout: this.toolTimeoutMs,
          ...(signal ? { signal } : {}),
        }),
      );
      out.push(...r.resources);
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    return out;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = this.requireClient();
    return this.watch(client, () =>
      client.readResource({ uri }, { timeout: this.toolTimeoutMs, ...(signal ? { signal } : {}) }),
    );
  }

  /** Tells the server the working directories changed (`notifications/roots/list_changed`). */
  async notifyRootsChanged(): Promise<void> {
    if (this.status !== 'connected' || !this.client) return;
    await this.client.sendRootsListChanged().catch(() => undefined);
  }

  /** The stdio process's pid (tests, diagnostics). */
  get pid(): number | undefined {
    return this.built?.pid();
  }

  private async teardown(): Promise<void> {
    const client = this.client;
    const built = this.built;
    this.client = undefined;
    this.built = undefined;
    const pids = new Set(this.trackedPids);
    const pid = built?.pid();
    if (pid !== undefined) pids.add(pid);
    const tree = [...pids].flatMap((p) => [p, ...descendantPids(p)]);
    if (client) {
      client.onclose = undefined;
      const transport = built?.transport as { terminateSession?: () => Promise<void> } | undefined;
      if (transport?.terminateSession && this.closing)
        await withTimeout(transport.terminateSession(), 1000).catch(() => undefined);
      await client.close().catch(() => undefined);
    } else if (built) {
      await built.transport.close().catch(() => undefined);
    }
    killAll(tree);
    built?.cleanup();
    this.trackedPids.clear();
  }

  /** Closes the connection for good (idempotent). */
  async close(): Promise<void> {
    if (this.closing && !this.client && !this.connecting) return;
    this.closing = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    // Closing the transport first makes a handshake in progress fail at once (no wait for MCP_TIMEOUT).
    await this.teardown();
    await this.connecting?.catch(() => undefined);
    await this.teardown();
    await this.log?.close();
  }
}
