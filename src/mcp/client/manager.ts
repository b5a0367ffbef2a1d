/**
 * The MCP servers of one session (docs/mcp-client.md "Connections"): connects every configured
 * server in parallel, adapts their tools, keeps the tool list in a stable order, reports each
 * server's status, routes elicitations to the host, answers roots with the working directories,
 * and closes everything with the session.
 *
 * ```ts
 * const config = loadMcpConfiguration({ projectRoot, home, env: process.env, interactive: false, mcpConfig });
 * const mcp = createMcpClientManager({ configuration: config, sessionDir, projectRoot, services });
 * await mcp.start();                         // every server connected or failed (never throws)
 * assembleToolPool({ builtIn, mcp: mcp.tools(), … });
 * mcp.onToolsChanged(() => …);               // a server's tools/list_changed: rebuild the pool
 * initEvent.mcp_servers = mcp.initServers(); // [{ name, status, source }]
 * ```
 *
 * Tool order: the tools known when `start()` settles are sorted by name; tools that appear later
 * (list_changed, a server that finished connecting late, a reconnect) are appended, so the tools
 * of a running session never move (the request prefix stays stable). A tool whose definition is
 * unchanged after a refresh keeps its object (and so its cached definition bytes).
 *
 * Timeouts come from the environment as Claude Code reads them: `MCP_TIMEOUT` (start-up, ms,
 * default 30,000), `MCP_TOOL_TIMEOUT` (per call, ms, default 100,000,000), `MAX_MCP_OUTPUT_TOKENS`
 * (default 25,000).
 */
import type { AnyTool } from '../../core/tool.js';
import type { SessionServicesHandle } from '../../runtime/session-services.js';
import {
  createMcpResourceTools,
  type McpResourceProvider,
} from '../../tools/mcp-resources/resource-tools.js';
import { canonicalJson } from './store/project-approvals.js';
import type { McpConfiguration } from './config/load.js';
import type { McpConfigScope, McpServerConfig } from './config/types.js';
import {
  type ElicitationHandler,
  McpConnection,
  type McpConnectionOptions,
  type McpServerStatus,
} from './connection/connection.js';
import type { StdioSandbox } from './connection/transports.js';
import type { ApprovalPins } from './security/pins.js';
import { adaptMcpTool } from './tools/adapt.js';
import { maxMcpOutputTokens } from './tools/results.js';

export const DEFAULT_MCP_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 100_000_000;

function envMs(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw && /^\d+$/.test(raw) && Number(raw) > 0) return Number(raw);
  return fallback;
}

/** One server as reported to hosts (`system/init.mcp_servers`, `gantry mcp list`). */
export interface McpServerReport {
  name: string;
  status: McpServerStatus;
  /** Where the entry came from (`dynamic` for `--mcp-config`). */
  source: McpConfigScope;
  transport: 'stdio' | 'http' | 'sse' | 'sdk';
  /** The command line or URL. */
  target: string;
  error?: string;
  toolCount: number;
  serverInfo?: { name: string; version: string };
  /** stdio: the stderr log. */
  logFile?: string;
  sandboxed?: boolean;
}

export interface McpClientManagerOptions {
  configuration: McpConfiguration;
  /** The session directory (stderr logs, saved media). */
  sessionDir: string;
  projectRoot: string;
  /** The working directories for `roots/list` (default: `[projectRoot]`). */
  roots?: () => readonly string[];
  /** Environment for the timeouts and caps (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Answers server elicitations; absent → declined. */
  elicit?: ElicitationHandler;
  /** Run stdio servers in this sandbox (when the sandbox is enabled). */
  sandbox?: StdioSandbox;
  /** Servers a user setting lets run outside the sandbox (`sandbox.excludedMcpServers`). */
  unsandboxedServers?: readonly string[];
  pins?: ApprovalPins;
  /** Mark MCP output as untrusted in the model's context (default true). */
  markUntrusted?: boolean;
  clientInfo?: { name: string; version: string };
  /** Remote-server reconnection (tests use short delays). */
  reconnectAttempts?: number;
  reconnectInitialDelayMs?: number;
  /** Register the manager here so it is closed with the session (name `mcp`). */
  services?: SessionServicesHandle;
  /** Base environment of stdio servers (tests; default the SDK's safe set). */
  baseEnv?: Record<string, string>;
}

interface AdaptedEntry {
  tool: AnyTool;
  key: string;
}

export class McpClientManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly adapted = new Map<string, Map<string, AdaptedEntry>>();
  private order: string[] = [];
  private started = false;
  private readonly listeners = new Set<() => void>();
  private readonly pending: McpServerConfig[];
  private readonly disabled: { config: McpServerConfig; reason: string }[];
  private readonly env: Readonly<Record<string, string | undefined>>;
  private disposed = false;
  private startPromise: Promise<void> | undefined;
  private resourceToolList: readonly AnyTool[] | undefined;

  constructor(private readonly options: McpClientManagerOptions) {
    this.env = options.env ?? process.env;
    this.pending = [...options.configuration.pendingApproval];
    this.disabled = [...options.configuration.disabled];
    for (const config of options.configuration.servers) this.addConnection(config);
    options.services?.register('mcp', { dispose: () => this.dispose() });
  }

  private addConnection(config: McpServerConfig): McpConnection {
    const sandboxed =
      config.entry.type === 'stdio' &&
      this.options.sandbox !== undefined &&
      !(this.options.unsandboxedServers ?? []).includes(config.name);
    const connOptions: McpConnectionOptions = {
      config,
      sessionDir: this.options.sessionDir,
      projectRoot: this.options.projectRoot,
      roots: this.options.roots ?? (() => [this.options.projectRoot]),
      ...(this.options.elicit ? { elicit: this.options.elicit } : {}),
      ...(sandboxed && this.options.sandbox ? { sandbox: this.options.sandbox } : {}),
      startupTimeoutMs: envMs(this.env, 'MCP_TIMEOUT', DEFAULT_MCP_TIMEOUT_MS),
      toolTimeoutMs: envMs(this.env, 'MCP_TOOL_TIMEOUT', DEFAULT_MCP_TOOL_TIMEOUT_MS),
      clientInfo: this.options.clientInfo ?? { name: 'gantry', version: '0' },
      ...(this.options.reconnectAttempts !== undefined
        ? { reconnectAttempts: this.options.reconnectAttempts }
        : {}),
      ...(this.options.reconnectInitialDelayMs !== undefined
        ? { reconnectInitialDelayMs: this.options.reconnectInitialDelayMs }
        : {}),
      ...(this.options.baseEnv ? { baseEnv: this.options.baseEnv } : {}),
      onToolsChanged: (c) => this.toolsChanged(c),
      onStatusChanged: (c) => {
        if (c.status === 'failed' && this.adapted.get(c.name)?.size) this.toolsChanged(c);
      },
    };
    const connection = new McpConnection(connOptions);
    this.connections.set(config.name, connection);
    return connection;
  }

  /** Connects every server in parallel; resolves when each is connected or failed. Never rejects. */
  start(): Promise<void> {
    this.startPromise ??= Promise.all([...this.connections.values()].map((c) => c.connect())).then(() => {
      this.started = true;
      this.order = [...this.currentNames()].sort();
    });
    return this.startPromise;
  }

  private currentNames(): Set<string> {
    const names = new Set<string>();
    for (const [server, tools] of this.adapted) {
      if (this.connections.get(server)?.status !== 'connected') continue;
      for (const entry of tools.values()) names.add(entry.tool.name);
    }
    return names;
  }

  private toolsChanged(connection: McpConnection): void {
    const previous = this.adapted.get(connection.name) ?? new Map<string, AdaptedEntry>();
    const next = new Map<string, AdaptedEntry>();
    if (connection.status === 'connected') {
      for (const sdkTool of connection.tools) {
        const key = canonicalJson(sdkTool);
        const adapted = previous.get(sdkTool.name);
        const entry =
          adapted && adapted.key === key
            ? adapted
            : {
                key,
                tool: adaptMcpTool(sdkTool, {
                  serverName: connection.name,
                  backend: connection,
                  ...(connection.config.entry.alwaysLoad ? { serverAlwaysLoad: true } : {}),
                  ...(this.options.pins ? { pins: this.options.pins } : {}),
                  ...(this.options.markUntrusted === false ? { markUntrusted: false } : {}),
                  maxOutputTokens: maxMcpOutputTokens(this.env),
                }),
              };
        next.set(sdkTool.name, entry);
      }
    }
    this.adapted.set(connection.name, next);
    if (!this.started) return;
    const live = this.currentNames();
    this.order = [
      ...this.order.filter((n) => live.has(n)),
      ...[...live].filter((n) => !this.order.includes(n)).sort(),
    ];
    for (const listener of this.listeners) listener();
  }

  /** The adapted tools of the connected servers, in the stable order (see the module comment). */
  tools(): AnyTool[] {
    const byName = new Map<string, AnyTool>();
    for (const [server, tools] of this.adapted) {
      if (this.connections.get(server)?.status !== 'connected') continue;
      for (const entry of tools.values()) byName.set(entry.tool.name, entry.tool);
    }
    const names = this.started ? this.order : [...byName.keys()].sort();
    return names.map((n) => byName.get(n)).filter((t): t is AnyTool => t !== undefined);
  }

  /**
   * The connected server and the server's own tool name behind a model-visible tool name
   * (`mcp__<server>__<tool>`, normalised); undefined when no connected server has it.
   */
  resolveTool(modelName: string): { connection: McpConnection; toolName: string } | undefined {
    for (const [server, tools] of this.adapted) {
      const connection = this.connections.get(server);
      if (connection?.status !== 'connected') continue;
      for (const [toolName, entry] of tools)
        if (entry.tool.name === modelName) return { connection, toolName };
    }
    return undefined;
  }

  /** `tools()` of the named servers only, in the same order. */
  toolsOf(servers: readonly string[]): AnyTool[] {
    const keep = new Set<string>();
    for (const server of servers)
      for (const entry of this.adapted.get(server)?.values() ?? []) keep.add(entry.tool.name);
    return this.tools().filter((t) => keep.has(t.name));
  }

  /** Called after any server's tool list changed once `start()` settled. Returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  /** Connected servers, by name. */
  connectedServers(): McpConnection[] {
    return [...this.connections.values()].filter((c) => c.status === 'connected');
  }

  /** Every server: connected, pending, failed, waiting for approval, disabled. Sorted by name. */
  reports(): McpServerReport[] {
    const out: McpServerReport[] = [];
    const target = (c: McpServerConfig): string =>
      c.entry.type === 'stdio'
        ? [c.entry.command, ...c.entry.args].join(' ')
        : c.entry.type === 'sdk'
          ? 'in-process (Agent SDK)'
          : c.entry.url;
    for (const c of this.connections.values()) {
      out.push({
        name: c.name,
        status: c.status,
        source: c.config.scope,
        transport: c.transportType,
        target: target(c.config),
        ...(c.error ? { error: c.error } : {}),
        toolCount: c.status === 'connected' ? c.tools.length : 0,
        ...(c.serverInfo ? { serverInfo: c.serverInfo } : {}),
        ...(c.logFile ? { logFile: c.logFile } : {}),
        ...(c.sandboxed ? { sandboxed: true } : {}),
      });
    }
    for (const config of this.pending)
      out.push({
        name: config.name,
        status: 'needs-approval',
        source: config.scope,
        transport: config.entry.type,
        target: target(config),
        toolCount: 0,
      });
    for (const { config, reason } of this.disabled)
      out.push({
        name: config.name,
        status: 'disabled',
        source: config.scope,
        transport: config.entry.type,
        target: target(config),
        error: reason,
        toolCount: 0,
      });
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** `system/init.mcp_servers`: `{name, status, source}` per server. */
  initServers(): { name: string; status: string; source: string }[] {
    return this.reports().map((r) => ({ name: r.name, status: r.status, source: r.source }));
  }

  /** Project servers waiting for the user's answer (interactive sessions). */
  pendingApproval(): readonly McpServerConfig[] {
    return this.pending;
  }

  /**
   * Records the user's answer for a pending project server: approved servers connect now (their
   * tools are appended), rejected ones are disabled. Resolves once an approved server connected
   * or failed.
   */
  async answerApproval(name: string, approved: boolean): Promise<void> {
    const index = this.pending.findIndex((c) => c.name === name);
    if (index < 0 || this.disposed) return;
    const [config] = this.pending.splice(index, 1) as [McpServerConfig];
    if (!approved) {
      this.disabled.push({ config, reason: 'rejected by the user' });
      return;
    }
    await this.addConnection(config).connect();
  }

  /**
   * Adds a server during the session (a host's in-process SDK server): it connects now and its
   * tools join the session's pool. Resolves once it connected or failed. Throws when a server of
   * that name exists already or the manager is disposed.
   */
  async addServer(config: McpServerConfig): Promise<void> {
    if (this.disposed) throw new Error(`the MCP client is closed; ${config.name} was not added`);
    const taken =
      this.connections.has(config.name) ||
      this.pending.some((c) => c.name === config.name) ||
      this.disabled.some((d) => d.config.name === config.name);
    if (taken) throw new Error(`an MCP server named ${config.name} is already configured`);
    await this.addConnection(config).connect();
  }

  /**
   * Removes a server during the session (the host's `setMcpServers`): its connection is closed and
   * its tools leave the pool. Resolves false when no server of that name is known.
   */
  async removeServer(name: string): Promise<boolean> {
    const connection = this.connections.get(name);
    if (connection) {
      this.connections.delete(name);
      await connection.close();
      return true;
    }
    const p = this.pending.findIndex((c) => c.name === name);
    if (p >= 0) {
      this.pending.splice(p, 1);
      return true;
    }
    const d = this.disabled.findIndex((x) => x.config.name === name);
    if (d >= 0) {
      this.disabled.splice(d, 1);
      return true;
    }
    return false;
  }

  /** The resource tools' view of the servers (connected servers with the resources capability). */
  readonly resources: McpResourceProvider = {
    servers: () =>
      this.connectedServers()
        .filter((c) => c.capabilities?.resources)
        .map((c) => c.name),
    listResources: async (server, signal) => {
      const resources = await this.requireConnection(server).listResources(signal);
      return resources.map((r) => ({
        uri: r.uri,
        name: r.name,
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        ...(r.description ? { description: r.description } : {}),
      }));
    },
    readResource: async (server, uri, signal) => {
      const result = await this.requireConnection(server).readResource(uri, signal);
      return {
        contents: result.contents.map((c) =>
          'text' in c && typeof c.text === 'string'
            ? { uri: c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}), text: c.text }
            : {
                uri: c.uri,
                ...(c.mimeType ? { mimeType: c.mimeType } : {}),
                blob: String((c as { blob?: unknown }).blob ?? ''),
              },
        ),
      };
    },
  };

  private requireConnection(name: string): McpConnection {
    const c = this.connections.get(name);
    if (!c) throw new Error(`no MCP server named "${name}"`);
    return c;
  }

  /**
   * `ListMcpResourcesTool` and `ReadMcpResourceTool` (the same objects on every call), when any
   * configured server may have resources; empty when there are no servers.
   */
  resourceTools(): readonly AnyTool[] {
    if (this.connections.size === 0 && this.pending.length === 0) return [];
    this.resourceToolList ??= createMcpResourceTools(this.resources);
    return this.resourceToolList;
  }

  /** Tells every connected server that the working directories changed. */
  async rootsChanged(): Promise<void> {
    await Promise.all(this.connectedServers().map((c) => c.notifyRootsChanged()));
  }

  /** Closes every connection (idempotent; no server process is left running). */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.listeners.clear();
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }
}

export function createMcpClientManager(options: McpClientManagerOptions): McpClientManager {
  return new McpClientManager(options);
}
