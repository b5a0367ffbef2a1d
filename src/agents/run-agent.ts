/**
 * `runAgent`: one sub-agent run as an async generator of its events (the child's `assistant`,
 * `user`, `permission_denied` … events, each with `parent_tool_use_id` and `agent_id`), returning
 * its outcome (final report, usage, denials).
 *
 * Sequence: tools (the parent's, filtered for the agent; a fork gets the parent's exact list) →
 * mode (narrowed to the parent's) → decider (`narrowedDecider`) → sidechain transcript and meta →
 * the definition's own MCP servers and hooks (agent-scope.ts) → the loop (`query()`) with its own
 * abort signal chained to the parent call's, its SubagentStop hooks (the parent's and the
 * definition's) asked when it stops, a block sending it back to work → cleanup on every exit path
 * (done, error, abort, the consumer leaving): the child's loop is closed, its servers are closed,
 * the meta file records how it ended.
 */
import type { AnyTool, Message, PermissionMode } from '../core/index.js';
import type { LoopHandle } from '../loop/subagent-host.js';
import { query } from '../loop/query.js';
import type {
  PermissionDenial,
  QueryEvent,
  QueryOptions,
  ResultEvent,
  ResumedSession,
} from '../loop/types.js';
import { resolveModelAlias } from '../model/models.js';
import { askAllDecider } from '../runtime/index.js';
import { sessionDirFor } from '../tools/file-io/session-files.js';
import type { AgentDefinition } from './definitions.js';
import { FORK_AGENT_TYPE } from './definitions.js';
import { type AgentHost, openAgentScope } from './agent-scope.js';
import { filterToolsForAgent, resolveAgentTools } from './filter-tools.js';
import type { AgentChannel } from './messaging/agent-directory.js';
import { narrowedDecider, narrowingNote, narrowPermissionMode } from './narrow.js';
import { type SidechainMeta, sidechainPaths, writeSidechainMeta } from './sidechain.js';

export interface RunAgentOptions {
  definition: AgentDefinition;
  /** The task text (a fork's directive). */
  prompt: string;
  description: string;
  parent: LoopHandle;
  agentId: string;
  /** The Agent call that starts it. */
  toolUseId: string;
  /** Runs in the background (its tools are the background allowlist). */
  isAsync: boolean;
  /** The `model` input (alias or id); overrides the definition's. */
  model?: string;
  /** Working directory (a worktree); default the parent's. */
  cwd?: string;
  /** Aborts the child (the parent call's signal, a background task's stop). */
  signal: AbortSignal;
  /** For a fork: the conversation it starts from (see fork.ts). */
  forkMessages?: Message[];
  /** The agent id of the parent when the parent is itself a sub-agent. */
  parentAgentId?: string;
  /** Extra lines for the meta file (worktree). */
  metaExtra?: Partial<SidechainMeta>;
  /** The hosting session's world: its MCP servers, environment, trust (agent-scope.ts). */
  host?: AgentHost;
  /** Continue this conversation (a finished agent resumed by SendMessage; its sidechain transcript). */
  resume?: ResumedSession;
  /** Bound to the child's loop while it runs, so SendMessage can deliver into it (messaging/). */
  channel?: AgentChannel;
}

export interface AgentOutcome {
  agentId: string;
  agentType: string;
  status: 'completed' | 'failed' | 'killed';
  /** The child's final report (its last assistant text) or the error. */
  text: string;
  result: ResultEvent | undefined;
  toolUseCount: number;
  toolsUsed: string[];
  totalTokens: number;
  durationMs: number;
  /** Calls denied in the child, each with the child's agent id. */
  denials: (PermissionDenial & { agent_id: string })[];
  model: string;
  permissionMode: PermissionMode;
  transcriptPath?: string;
}

/** The child's model: `inherit`/absent → the parent's; an alias resolves for the provider. */
export function agentModel(parent: LoopHandle, requested: string | undefined): string {
  if (!requested || requested === 'inherit') return parent.model();
  const provider = parent.options.modelClient.provider === 'openai' ? 'openai' : 'anthropic';
  return resolveModelAlias(provider, requested);
}

/** The tools the child gets (see filter-tools.ts). */
export function agentTools(parent: LoopHandle, definition: AgentDefinition, isAsync: boolean): AnyTool[] {
  if (definition.agentType === FORK_AGENT_TYPE) return [...parent.tools];
  const filtered = filterToolsForAgent({
    tools: parent.tools,
    isBuiltIn: definition.source === 'built-in',
    isAsync,
    depth: parent.depth + 1,
  });
  return resolveAgentTools(definition, filtered).tools;
}

/**
 * The parent's command hooks a child's loop runs itself: the tool-level ones (PreToolUse runs in
 * the permission engine). Session-level events (SessionStart, UserPromptSubmit, Stop, SessionEnd)
 * belong to the parent; a child's end is the parent's SubagentStop.
 */
function childHooks(
  hooks: NonNullable<QueryOptions['settingsHooks']>,
  own: NonNullable<QueryOptions['settingsHooks']> = {},
): NonNullable<QueryOptions['settingsHooks']> {
  const out: NonNullable<QueryOptions['settingsHooks']> = {};
  for (const event of ['PostToolUse', 'PostToolUseFailure', 'PreCompact', 'PostCompact'] as const) {
    const list = [...(hooks[event] ?? []), ...(own[event] ?? [])];
    if (list.length) out[event] = list;
  }
  return out;
}

/** The filtered tools with the definition's MCP tools added (an inline server's tool replaces the parent's of that name). */
function withScopeTools(tools: AnyTool[], own: readonly AnyTool[], definition: AgentDefinition): AnyTool[] {
  if (own.length === 0) return tools;
  const kept = resolveAgentTools(
    { disallowedTools: definition.disallowedTools ?? [], source: definition.source },
    own,
  ).tools;
  const names = new Set(kept.map((t) => t.name));
  return [...tools.filter((t) => !names.has(t.name)), ...kept];
}

/** Stable facts about the environment, appended to a sub-agent's own prompt. */
function environmentNote(cwd: string): string {
  return [
    '# Environment',
    `Working directory: ${cwd}`,
    `Platform: ${process.platform}`,
    '',
    'Notes: your working directory may be reset between Bash calls, so use absolute paths. Your',
    'final message is the report the other agent receives: include every finding it needs.',
  ].join('\n');
}

const FORWARDED = new Set(['assistant', 'user', 'tool_progress']);

/** Runs the child (see the module comment). */
export async function* runAgent(options: RunAgentOptions): AsyncGenerator<QueryEvent, AgentOutcome, void> {
  const { definition, parent, agentId } = options;
  const started = Date.now();
  const isFork = definition.agentType === FORK_AGENT_TYPE;
  const parentMode = parent.permissionMode();
  const requestedMode = isFork ? undefined : definition.permissionMode;
  const mode = narrowPermissionMode(parentMode, requestedMode);
  const note = narrowingNote(parentMode, requestedMode);
  const model = agentModel(parent, options.model ?? definition.model);
  const cwd = options.cwd ?? parent.cwd();
  const tools = agentTools(parent, definition, options.isAsync);
  const paths = sidechainPaths(parent.transcriptPath, agentId);
  const po = parent.options;

  const meta: SidechainMeta = {
    agentType: definition.agentType,
    ...(isFork ? { isFork: true as const } : {}),
    isBuiltIn: definition.source === 'built-in',
    description: options.description,
    toolUseId: options.toolUseId,
    ...(options.parentAgentId ? { parentAgentId: options.parentAgentId } : {}),
    spawnDepth: parent.depth + 1,
    requestShape: options.isAsync ? 'background' : 'foreground',
    requestNonInteractive: po.canUseTool === undefined,
    model: isFork ? 'inherit' : model,
    permissionMode: mode,
    ...(note ? { permissionNote: note } : {}),
    ...options.metaExtra,
    finished: false,
  };
  if (paths) writeSidechainMeta(paths.meta, meta);

  const scope = isFork
    ? undefined
    : await openAgentScope(definition, {
        host: options.host ?? {},
        projectRoot: options.cwd ?? po.projectRoot ?? po.cwd,
        cwd,
        sessionDir: po.sessionDir ?? sessionDirFor(parent.sessionId, po.home),
        agentId,
      });
  // Recorded in the meta file written when the child ends.
  if (scope?.servers.length) meta.mcpServers = scope.servers;
  if (scope?.notes.length) meta.scopeNotes = scope.notes;

  let stopHooksRan = false;
  const engine = po.permissionEngine;
  const base = engine
    ? (request: Parameters<NonNullable<QueryOptions['decide']>>[0]) =>
        engine.decide(request, { transcriptPath: paths?.transcript ?? '' })
    : (po.decide ?? askAllDecider);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) controller.abort(options.signal.reason);
  else options.signal.addEventListener('abort', onAbort, { once: true });

  const childOptions: QueryOptions = {
    prompt: options.prompt,
    modelClient: po.modelClient,
    model,
    cwd,
    projectRoot: options.cwd ?? po.projectRoot ?? po.cwd,
    ...(po.additionalDirectories ? { additionalDirectories: po.additionalDirectories } : {}),
    sessionId: parent.sessionId,
    permissionMode: mode,
    decide: (scope?.gate ?? ((d) => d))(
      narrowedDecider(base, () => parent.permissionMode()),
      {
        sessionId: parent.sessionId,
        transcriptPath: parent.transcriptPath,
        projectRoot: options.cwd ?? po.projectRoot ?? po.cwd,
      },
    ),
    ...(po.canUseTool ? { canUseTool: po.canUseTool } : {}),
    settingsHooks: childHooks(po.settingsHooks ?? {}, scope?.loopHooks),
    subagentStop: async ({ stopHookActive, lastAssistantMessage, signal }) => {
      stopHooksRan = true;
      const agent = {
        agentId,
        agentType: definition.agentType,
        lastMessage: lastAssistantMessage,
        stopHookActive,
        ...(paths ? { agentTranscriptPath: paths.transcript } : {}),
      };
      const [fromParent, own] = await Promise.all([
        parent.runSubagentHook('SubagentStop', agent, signal),
        scope?.subagentStop?.(
          {
            session_id: parent.sessionId,
            transcript_path: parent.transcriptPath,
            cwd,
            permission_mode: mode,
            hook_event_name: 'SubagentStop',
            agent_id: agentId,
            agent_type: definition.agentType,
            ...(paths ? { agent_transcript_path: paths.transcript } : {}),
            stop_hook_active: stopHookActive,
            last_assistant_message: lastAssistantMessage,
          },
          signal,
        ),
      ]);
      const block = fromParent.block ?? own?.block;
      const stop = fromParent.stop ?? own?.stop;
      return { ...(block ? { block } : {}), ...(stop ? { stop } : {}) };
    },
    ...(definition.maxTurns !== undefined ? { maxTurns: definition.maxTurns } : {}),
    ...(po.home ? { home: po.home } : {}),
    ...(po.sessionDir ? { sessionDir: po.sessionDir } : {}),
    ...(po.maxTokens ? { maxTokens: po.maxTokens } : {}),
    ...(po.toolResultLimits ? { toolResultLimits: po.toolResultLimits } : {}),
    ...(po.now ? { now: po.now } : {}),
    abortSignal: controller.signal,
    agentId,
    agentType: definition.agentType,
    parentToolUseId: options.toolUseId,
    agentDepth: parent.depth + 1,
    taskRegistry: parent.tasks,
    ...(po.runSubagent ? { runSubagent: po.runSubagent } : {}),
    transcript: paths
      ? { path: paths.transcript, ...(po.transcript?.fsync ? { fsync: po.transcript.fsync } : {}) }
      : { persist: false },
  };
  if (isFork) {
    // Same request prefix as the parent: its frozen system blocks, its exact tool list and
    // definitions, its conversation with placeholder results (fork.ts).
    childOptions.toolPool = { callable: parent.tools, definitions: () => parent.toolDefinitions };
    childOptions.resume = {
      sessionId: parent.sessionId,
      transcriptPath: paths?.transcript ?? '',
      messages: options.forkMessages ?? [],
      systemBlocks: parent.system.map((b) => ({ text: b.text, cached: b.cache_control !== undefined })),
      lastUuid: null,
      // Sibling forks of the same turn send these messages too: the first one writes them.
      sharedPrefix: true,
    };
    if (!paths) childOptions.resume.transcriptPath = '';
    if (po.thinking) childOptions.thinking = po.thinking;
    if (po.requestExtra) childOptions.requestExtra = po.requestExtra;
  } else {
    childOptions.tools = withScopeTools(tools, scope?.tools ?? [], definition);
    childOptions.systemPrompt = definition.prompt;
    const serverNotes = scope?.notes.filter((n) => n.startsWith('MCP server')) ?? [];
    childOptions.appendSystemPrompt = [
      note,
      environmentNote(cwd),
      serverNotes.length
        ? `Some of your MCP servers are not available:\n${serverNotes.map((n) => `- ${n}`).join('\n')}`
        : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    childOptions.memory = !definition.omitMemory && po.memory !== false;
    if (options.resume) childOptions.resume = options.resume;
  }

  // SubagentStart hooks of the parent; their context joins the child's first prompt.
  const start = await parent
    .runSubagentHook('SubagentStart', { agentId, agentType: definition.agentType }, controller.signal)
    .catch(() => ({ additionalContext: [] as string[] }));
  if (start.additionalContext.length)
    childOptions.prompt = `${options.prompt}\n\n<system-reminder>\nSubagentStart hook context:\n${start.additionalContext.join('\n')}\n</system-reminder>`;

  const denials: AgentOutcome['denials'] = [];
  const toolsUsed: string[] = [];
  let toolUseCount = 0;
  const inputs = new Map<string, Record<string, unknown>>();
  let result: ResultEvent | undefined;
  let status: AgentOutcome['status'] = 'failed';
  let errorText: string | undefined;
  const q = query(childOptions);
  options.channel?.attach(q);
  try {
    for await (const event of q) {
      options.channel?.observe(event);
      if (event.type === 'result') {
        result = event;
        continue;
      }
      if (event.type === 'assistant') {
        const block = event.message.content[0];
        if (block?.type === 'tool_use') {
          toolUseCount++;
          if (block.input && typeof block.input === 'object')
            inputs.set(block.id, block.input as Record<string, unknown>);
          if (!toolsUsed.includes(block.name)) toolsUsed.push(block.name);
        }
      }
      if (event.type === 'system' && event.subtype === 'permission_denied') {
        denials.push({
          tool_name: event.tool_name,
          tool_use_id: event.tool_use_id,
          tool_input: inputs.get(event.tool_use_id) ?? {},
          agent_id: agentId,
        });
        yield { ...event, agent_id: agentId, tool_input: inputs.get(event.tool_use_id) ?? {} };
        continue;
      }
      if (FORWARDED.has(event.type)) yield event;
    }
    if (controller.signal.aborted) status = 'killed';
    else status = result && !result.is_error ? 'completed' : 'failed';
  } catch (error) {
    errorText = error instanceof Error ? error.message : String(error);
    status = controller.signal.aborted ? 'killed' : 'failed';
    throw error;
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    // The consumer left early (the parent was aborted or stopped): the child's loop is closed.
    if (result === undefined && errorText === undefined) {
      status = 'killed';
      controller.abort();
      await q.return(undefined as never).catch(() => undefined);
    }
    if (paths) {
      try {
        writeSidechainMeta(paths.meta, {
          ...meta,
          finished: true,
          status,
          ...(errorText ? { error: errorText } : {}),
        });
      } catch {
        // The transcript itself is complete; a meta file that cannot be rewritten keeps its start state.
      }
    }
    await scope?.close().catch(() => undefined);
  }
  // A child that ended without stopping on its own (failed, killed) still gets its SubagentStop
  // hooks, for the record; there is nothing left to send back to work.
  if (!stopHooksRan)
    await parent
      .runSubagentHook(
        'SubagentStop',
        {
          agentId,
          agentType: definition.agentType,
          ...(result?.result ? { lastMessage: result.result } : {}),
          ...(paths ? { agentTranscriptPath: paths.transcript } : {}),
        },
        new AbortController().signal,
      )
      .catch(() => undefined);
  if (result?.permission_denials)
    for (const d of result.permission_denials)
      if (!denials.some((x) => x.tool_use_id === d.tool_use_id)) denials.push({ ...d, agent_id: agentId });
  const usage = result?.usage;
  const totalTokens = usage
    ? (usage.input_tokens ?? 0) +
      (usage.output_tokens ?? 0) +
      (usage.cache_read_input_tokens ?? 0) +
      (usage.cache_creation_input_tokens ?? 0)
    : 0;
  const text =
    status === 'completed'
      ? (result?.result ?? '')
      : status === 'killed'
        ? 'The agent was stopped before it finished.'
        : `The agent failed: ${result?.errors?.join('; ') ?? result?.result ?? errorText ?? 'no result'}`;
  return {
    agentId,
    agentType: definition.agentType,
    status,
    text,
    result,
    toolUseCount,
    toolsUsed,
    totalTokens,
    durationMs: Date.now() - started,
    denials,
    model,
    permissionMode: mode,
    ...(paths ? { transcriptPath: paths.transcript } : {}),
  };
}
