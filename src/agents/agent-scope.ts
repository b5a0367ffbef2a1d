/**
 * What an agent definition brings for its own run: its `mcpServers` (connected when the sub-agent
 * starts, closed when it ends, their tools in its pool only) and its `hooks` (they run only for
 * that sub-agent). Claude Code documentation, "Subagents" (frontmatter `mcpServers`, `hooks`).
 *
 * MCP servers (`openMcpServerSet`): a string names a server the parent session has (shared, not
 * reopened); an object `{name: entry}` configures servers inline (`.mcp.json` entry format). A
 * server that fails, or a bad entry, never stops the sub-agent: it is named in `notes`.
 *
 * Hooks: a settings-style object `{Event: [{matcher?, hooks: [{type: "command", command,
 * timeout?}]}]}`. Events:
 * - `PreToolUse`: run for each of the sub-agent's calls before the parent's policy decides. Its
 *   `deny` and `ask` narrow the decision; its `allow` is no opinion, because a sub-agent's
 *   permissions only narrow its parent's; `updatedInput` is re-checked by the engine.
 * - `PostToolUse`, `PostToolUseFailure`, `PreCompact`, `PostCompact`: run by the sub-agent's loop.
 * - `Stop` (run as `SubagentStop`, as Claude Code does) and `SubagentStop`: asked when the
 *   sub-agent stops; a block sends it back to work (QueryOptions.subagentStop).
 * Other events, other handler types and malformed entries are left out and named in `notes`.
 *
 * Trust: a definition from the project (`.claude/agents/`, `.gantry/agents/`) would run commands
 * from the repository, so its servers and hooks are used only when `AgentHost.projectTrusted` is
 * true (the folder is trusted), as project settings hooks are; otherwise a note says they were left out.
 * Settings that disable hooks (`disableAllHooks`, managed `allowManagedHooksOnly`) disable a
 * definition's hooks too (`AgentHost.hooksAllowed`).
 */
import path from 'node:path';
import type { AnyTool } from '../core/index.js';
import type { PermissionDecider } from '../core/permission-types.js';
import type { RuleSource } from '../core/permission-types.js';
import { LoopHooks } from '../loop/hooks.js';
import type { HookCommandConfig } from '../loop/types.js';
import type { McpClientManager } from '../mcp/client/manager.js';
import { openMcpServerSet, type McpServerSpec } from '../mcp/client/server-set.js';
import type { StdioSandbox } from '../mcp/client/connection/transports.js';
import { runPreToolUseHooks, type PreToolUseInput } from '../permissions/hooks/pre-tool-use.js';
import type { HookVerdict } from '../permissions/hooks/types.js';
import type { HookMatcherConfig } from '../permissions/settings/types.js';
import type { AgentDefinition } from './definitions.js';

/** What the session that hosts the Agent tool tells it about its world. */
export interface AgentHost {
  /** The parent session's MCP servers (names in `mcpServers` refer to them). */
  mcp?: () => McpClientManager | undefined;
  /** `${VAR}` expansion and the servers' environment (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Project agent definitions may start their own servers and hooks (default false). */
  projectTrusted?: boolean;
  /** False when settings allow no hooks but managed ones (`disableAllHooks`, `allowManagedHooksOnly`). */
  hooksAllowed?: boolean;
  /** Run inline stdio servers in this sandbox. */
  sandbox?: StdioSandbox;
}

export interface AgentScope {
  /** The definition's MCP tools (shared parent servers first, then inline ones). */
  readonly tools: AnyTool[];
  /** Hooks the sub-agent's loop runs (PostToolUse, PostToolUseFailure, PreCompact, PostCompact). */
  readonly loopHooks: HookCommandConfig;
  /** Wraps the sub-agent's decider with the definition's PreToolUse hooks (identity without any). */
  gate(decide: PermissionDecider, facts: HookFacts): PermissionDecider;
  /** The definition's SubagentStop (and Stop) hooks; undefined without any. */
  readonly subagentStop:
    | ((input: Record<string, unknown>, signal: AbortSignal) => Promise<StopAnswer>)
    | undefined;
  /** `{name, status}` of the definition's servers. */
  readonly servers: { name: string; status: string; error?: string }[];
  /** What was left out or failed, one sentence each. */
  readonly notes: string[];
  /** Closes the inline servers (idempotent). */
  close(): Promise<void>;
}

export interface HookFacts {
  sessionId: string;
  transcriptPath: string;
  projectRoot: string;
}

export interface StopAnswer {
  block?: { reason: string };
  stop?: { reason: string };
}

const LOOP_EVENTS = ['PostToolUse', 'PostToolUseFailure', 'PreCompact', 'PostCompact'] as const;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function ruleSourceOf(definition: AgentDefinition): RuleSource {
  if (definition.source === 'user') return 'userSettings';
  if (definition.source === 'flag') return 'cliArg';
  return 'projectSettings';
}

/** The definition's hooks by event (`Stop` folded into `SubagentStop`), with notes for what was left out. */
export function parseAgentHooks(definition: AgentDefinition): { config: HookCommandConfig; notes: string[] } {
  const config: HookCommandConfig = {};
  const notes: string[] = [];
  const where = definition.filePath ?? definition.agentType;
  for (const [rawEvent, list] of Object.entries(definition.hooks ?? {})) {
    const event = rawEvent === 'Stop' ? 'SubagentStop' : rawEvent;
    if (
      event !== 'PreToolUse' &&
      event !== 'SubagentStop' &&
      !(LOOP_EVENTS as readonly string[]).includes(event)
    ) {
      notes.push(`${where}: hooks.${rawEvent} is not supported in an agent definition; left out`);
      continue;
    }
    if (!Array.isArray(list)) {
      notes.push(`${where}: hooks.${rawEvent} must be a list; left out`);
      continue;
    }
    const entries: HookMatcherConfig[] = [];
    list.forEach((entry, i) => {
      const handlers = isObj(entry) && Array.isArray(entry.hooks) ? entry.hooks : undefined;
      if (!handlers || (entry.matcher !== undefined && typeof entry.matcher !== 'string')) {
        notes.push(`${where}: hooks.${rawEvent}[${i}] must be {matcher?, hooks: [...]}; left out`);
        return;
      }
      const commands = handlers.flatMap((h, j) => {
        if (isObj(h) && h.type === 'command' && typeof h.command === 'string' && h.command.trim()) {
          const timeout = typeof h.timeout === 'number' && h.timeout > 0 ? { timeout: h.timeout } : {};
          return [{ type: 'command' as const, command: h.command, ...timeout }];
        }
        notes.push(`${where}: hooks.${rawEvent}[${i}].hooks[${j}] is not a command hook; left out`);
        return [];
      });
      if (commands.length)
        entries.push({
          ...(typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {}),
          hooks: commands,
          source: ruleSourceOf(definition),
          ...(definition.filePath ? { file: definition.filePath } : {}),
        });
    });
    if (entries.length)
      config[event as keyof HookCommandConfig] = [
        ...(config[event as keyof HookCommandConfig] ?? []),
        ...entries,
      ];
  }
  return { config, notes };
}

/** The PreToolUse verdict as a narrowing step: deny and ask stand, allow is no opinion. */
function narrowingVerdict(verdict: HookVerdict | undefined): HookVerdict | undefined {
  if (!verdict || verdict.decision !== 'allow') return verdict;
  const { decision: _allow, ...rest } = verdict;
  return rest;
}

/** A decider that runs `hooks` first (see the module comment). */
function gateWith(
  hooks: readonly HookMatcherConfig[],
  decide: PermissionDecider,
  facts: HookFacts,
): PermissionDecider {
  return async (request) => {
    const input: PreToolUseInput = {
      session_id: facts.sessionId,
      transcript_path: facts.transcriptPath,
      cwd: request.cwd,
      permission_mode: request.mode,
      hook_event_name: 'PreToolUse',
      tool_name: request.toolName,
      tool_input: request.input,
      tool_use_id: request.toolUseId,
    };
    const verdict = narrowingVerdict(
      await runPreToolUseHooks({ hooks, input, projectRoot: facts.projectRoot }),
    );
    const message = (what: string) =>
      `${what} by the agent's PreToolUse hook \`${verdict?.hook}\`${verdict?.reason ? `: ${verdict.reason}` : ''}`;
    if (verdict?.decision === 'deny')
      return { behavior: 'deny', reason: { type: 'hook', hook: verdict.hook, message: message('Denied') } };
    // A rewritten input is decided by the parent's policy as rewritten; it cannot skip the ask below.
    const decided = await decide(
      verdict?.updatedInput ? { ...request, input: verdict.updatedInput } : request,
    );
    if (decided.behavior === 'deny') return decided;
    if (verdict?.decision === 'ask' || verdict?.updatedInput) {
      return {
        behavior: 'ask',
        reason: { type: 'hook', hook: verdict.hook, message: message('Needs approval, asked') },
        suggestions: [],
        ...(verdict.updatedInput ? { updatedInput: verdict.updatedInput } : {}),
      };
    }
    return decided;
  };
}

/** Opens the definition's servers and reads its hooks (never rejects; see the module comment). */
export async function openAgentScope(
  definition: AgentDefinition,
  options: { host: AgentHost; projectRoot: string; cwd: string; sessionDir: string; agentId: string },
): Promise<AgentScope> {
  const notes: string[] = [];
  const fromProject = definition.source === 'project' || definition.source === 'gantry';
  const allowed = !fromProject || options.host.projectTrusted === true;
  const where = definition.filePath ?? definition.agentType;
  const specs = definition.mcpServers ?? [];
  const hasHooks = Object.keys(definition.hooks ?? {}).length > 0;
  if (!allowed && (specs.length || hasHooks)) {
    notes.push(
      `${where}: this project agent's ${[specs.length ? 'mcpServers' : '', hasHooks ? 'hooks' : ''].filter(Boolean).join(' and ')} were left out: the folder is not trusted`,
    );
  }
  const hooksAllowed = allowed && options.host.hooksAllowed !== false;
  if (allowed && hasHooks && !hooksAllowed)
    notes.push(`${where}: hooks left out: settings allow only managed hooks, or none`);
  const parsed = hooksAllowed ? parseAgentHooks(definition) : { config: {} as HookCommandConfig, notes: [] };
  notes.push(...parsed.notes);

  const usable = allowed ? specs.filter((s): s is McpServerSpec => typeof s === 'string' || isObj(s)) : [];
  if (allowed && usable.length < specs.length)
    notes.push(`${where}: an mcpServers item must be a name or an object; left out`);
  const set = usable.length
    ? await openMcpServerSet({
        servers: usable,
        ...(options.host.mcp?.() ? { parent: options.host.mcp() } : {}),
        projectRoot: options.projectRoot,
        env: options.host.env ?? process.env,
        sessionDir: path.join(options.sessionDir, 'subagents', options.agentId),
        roots: () => [options.cwd],
        file: where,
        ...(options.host.sandbox ? { sandbox: options.host.sandbox } : {}),
      })
    : undefined;
  for (const p of set?.problems ?? [])
    notes.push(`MCP server ${p.server ? `"${p.server}" ` : ''}left out: ${p.message}`);
  const servers = (set?.reports() ?? []).map((r) => ({
    name: r.name,
    status: r.status,
    ...(r.error ? { error: r.error } : {}),
  }));
  for (const s of servers)
    if (s.status === 'failed')
      notes.push(`MCP server "${s.name}" failed to start: ${s.error ?? 'no reason given'}`);

  const preToolUse = parsed.config.PreToolUse ?? [];
  const loopHooks: HookCommandConfig = {};
  for (const e of LOOP_EVENTS) if (parsed.config[e]) loopHooks[e] = parsed.config[e];
  const stopHooks = parsed.config.SubagentStop;
  const stopRunner = stopHooks
    ? new LoopHooks({
        commands: { SubagentStop: stopHooks },
        cwd: options.cwd,
        projectRoot: options.projectRoot,
      })
    : undefined;
  return {
    tools: set?.tools() ?? [],
    loopHooks,
    gate: (decide, facts) => (preToolUse.length ? gateWith(preToolUse, decide, facts) : decide),
    subagentStop: stopRunner
      ? async (input, signal) => {
          const out = await stopRunner.run('SubagentStop', input as never, {
            matchValue: definition.agentType,
            signal,
          });
          return { ...(out.block ? { block: out.block } : {}), ...(out.stop ? { stop: out.stop } : {}) };
        }
      : undefined,
    servers,
    notes,
    close: () => set?.close() ?? Promise.resolve(),
  };
}
