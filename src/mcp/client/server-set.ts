/**
 * A set of MCP servers opened for one (child) session and closed with it: what a sub-agent's
 * `mcpServers` and a library host's `mcpServers` option need (docs/mcp-client.md "Using it").
 *
 * ```ts
 * const set = await openMcpServerSet({
 *   servers: ['github', { scratch: { command: 'node', args: ['server.js'] } }],
 *   parent: parentManager,            // names refer to the parent's servers (shared, not reopened)
 *   projectRoot, env: process.env, sessionDir,
 * });
 * const tools = set.tools();          // mcp__github__…, mcp__scratch__… (stable order)
 * // … run the child session …
 * await set.close();                  // ends what this set started; the parent's servers stay
 * ```
 *
 * Specs, as in an agent definition's `mcpServers` list (Claude Code documentation, "Subagents"):
 * - a string: the name of a server the parent session already has. Its tools are shared (the
 *   parent's connection; closing the set does not close it). A name the parent does not know is a
 *   problem, reported, never fatal.
 * - an object `{name: entry}`: servers configured inline, in the `.mcp.json` entry format
 *   (`${VAR}` expansion included). They are started here, in parallel, and closed by `close()`.
 * A plain `{name: entry}` record (a host's `mcpServers` option) is the same as one object spec.
 *
 * `close()` is idempotent; with `services` the set also closes when those services are disposed.
 */
import type { AnyTool } from '../../core/tool.js';
import type { SessionServicesHandle } from '../../runtime/session-services.js';
import { parseServerEntry } from './config/parse-entry.js';
import type { McpConfigProblem, McpConfigScope, McpServerConfig } from './config/types.js';
import type { ElicitationHandler } from './connection/connection.js';
import type { StdioSandbox } from './connection/transports.js';
import { createMcpClientManager, type McpClientManager, type McpServerReport } from './manager.js';
import type { ApprovalPins } from './security/pins.js';

/** One `mcpServers` item: a parent server's name, or inline `{name: entry}` servers. */
export type McpServerSpec = string | Readonly<Record<string, unknown>>;

export interface McpServerSetOptions {
  /** The specs (see the module comment), or one `{name: entry}` record. */
  servers: readonly McpServerSpec[] | Readonly<Record<string, unknown>>;
  /** The session that names refer to (absent: every name is a problem). */
  parent?: McpClientManager;
  projectRoot: string;
  /** For `${VAR}` expansion, timeouts (`MCP_TIMEOUT`, `MCP_TOOL_TIMEOUT`) and output caps. */
  env: Readonly<Record<string, string | undefined>>;
  /** The child session's directory (stderr logs, saved media). */
  sessionDir: string;
  /** The scope reported for inline servers (default `dynamic`). */
  scope?: McpConfigScope;
  /** Label of the inline entries in problems and reports (default `<inline>`). */
  file?: string;
  roots?: () => readonly string[];
  elicit?: ElicitationHandler;
  /** Run the inline stdio servers in this sandbox. */
  sandbox?: StdioSandbox;
  unsandboxedServers?: readonly string[];
  pins?: ApprovalPins;
  markUntrusted?: boolean;
  clientInfo?: { name: string; version: string };
  /** Close the set with these services too (registered as `mcp:<setName>`). */
  services?: SessionServicesHandle;
  /** Unique name of the set among `services` (default `set-<n>`). */
  setName?: string;
  /** Base environment of stdio servers (tests). */
  baseEnv?: Record<string, string>;
}

export interface McpServerSet {
  /** The shared parent tools first (in the parent's order), then the inline servers' tools. */
  tools(): AnyTool[];
  /** Status of every server of the set (shared ones as the parent reports them). */
  reports(): McpServerReport[];
  /** `system/init`-style `{name, status, source}` for every server of the set. */
  initServers(): { name: string; status: string; source: string }[];
  /** Bad specs and entries, unknown names. */
  readonly problems: readonly McpConfigProblem[];
  /** The manager of the inline servers (undefined when there are none). */
  readonly manager: McpClientManager | undefined;
  /** Closes the inline servers (no process left); shared servers stay open. Idempotent. */
  close(): Promise<void>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

let setCounter = 0;

/** Opens the set (see the module comment). Resolves once every inline server is connected or failed; never rejects. */
export async function openMcpServerSet(options: McpServerSetOptions): Promise<McpServerSet> {
  const file = options.file ?? '<inline>';
  const scope = options.scope ?? 'dynamic';
  const specs: readonly McpServerSpec[] = Array.isArray(options.servers)
    ? options.servers
    : [options.servers as Readonly<Record<string, unknown>>];
  const problems: McpConfigProblem[] = [];
  const shared: string[] = [];
  const inline = new Map<string, McpServerConfig>();
  const parentNames = new Set(options.parent?.reports().map((r) => r.name) ?? []);
  for (const spec of specs) {
    if (typeof spec === 'string') {
      if (!parentNames.has(spec))
        problems.push({
          severity: 'error',
          message: `MCP server "${spec}" is not configured in this session`,
          server: spec,
        });
      else if (!shared.includes(spec)) shared.push(spec);
      continue;
    }
    if (!isRecord(spec)) {
      problems.push({ severity: 'error', message: 'an mcpServers item must be a name or an object', file });
      continue;
    }
    for (const [name, raw] of Object.entries(spec)) {
      const parsed = parseServerEntry(name, raw, { file, env: options.env, baseDir: options.projectRoot });
      problems.push(...parsed.problems);
      if (parsed.entry) inline.set(name, { name, scope, file, entry: parsed.entry });
    }
  }
  // An inline server with a parent server's name replaces it for this set.
  const sharedNames = shared.filter((n) => !inline.has(n));

  let manager: McpClientManager | undefined;
  if (inline.size) {
    manager = createMcpClientManager({
      configuration: {
        servers: [...inline.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        pendingApproval: [],
        disabled: [],
        problems: [],
        rawProjectEntries: new Map(),
      },
      sessionDir: options.sessionDir,
      projectRoot: options.projectRoot,
      env: options.env,
      ...(options.roots ? { roots: options.roots } : {}),
      ...(options.elicit ? { elicit: options.elicit } : {}),
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...(options.unsandboxedServers ? { unsandboxedServers: options.unsandboxedServers } : {}),
      ...(options.pins ? { pins: options.pins } : {}),
      ...(options.markUntrusted === false ? { markUntrusted: false } : {}),
      ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
      ...(options.baseEnv ? { baseEnv: options.baseEnv } : {}),
    });
  }
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= manager ? manager.dispose() : Promise.resolve();
    return closed;
  };
  options.services?.register(`mcp:${options.setName ?? `set-${++setCounter}`}`, { dispose: close });
  await manager?.start();

  const parentTools = (): AnyTool[] =>
    sharedNames.length && options.parent ? options.parent.toolsOf(sharedNames) : [];
  const reports = (): McpServerReport[] => [
    ...(options.parent?.reports().filter((r) => sharedNames.includes(r.name)) ?? []),
    ...(manager?.reports() ?? []),
  ];
  return {
    tools: () => [...parentTools(), ...(manager?.tools() ?? [])],
    reports,
    initServers: () => reports().map((r) => ({ name: r.name, status: r.status, source: r.source })),
    problems,
    manager,
    close,
  };
}
