/**
 * One session's state, built once when `query` starts: the system blocks (assembled once, or the
 * resumed session's own), the tool definitions, the tool runner, the transcript writer, hooks,
 * the token estimator, usage totals, loop breakers and the event factory. Everything that must
 * stay byte-stable across the session's requests is fixed here.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { AnyTool, DeliveryOptions, SessionInbox, ToolHookRunner } from '../core/index.js';
import type { Message, SystemBlock } from '../core/messages.js';
import type { ModelToolDefinition } from '../core/model-client.js';
import type { PermissionMode } from '../core/permission-types.js';
import { UsageAccumulator } from '../model/cost.js';
import { modelInfo, type ProviderName, resolveModelAlias } from '../model/models.js';
import { toolDefinitions } from '../runtime/index.js';
import { sessionDirFor } from '../tools/file-io/session-files.js';
import { DEFAULT_MAX_TOOL_CALLS, DEFAULT_REPEATED_CALL_LIMIT, LoopBreakers } from './breakers.js';
import { TokenEstimator } from './context/token-estimator.js';
import { EventFactory } from './events.js';
import { LoopHooks } from './hooks.js';
import { bridgeCanUseTool, loopDecider } from './permissions.js';
import { assembleSystemPrompt } from './prompt/assemble.js';
import { environmentFacts, findGitRoot, gitSnapshot, sessionContextText } from './prompt/environment.js';
import { loadMemoryFiles } from './prompt/memory.js';
import { toolAfterCallMessage, toolSessionContexts } from './reminders.js';
import { UntilNextPrompt } from './until-next-prompt.js';
import { createToolRunner, type PostCallSeam, type ToolRunner } from './tool-runner.js';
import { defaultGantryHome, transcriptPathFor } from './transcript/paths.js';
import { TranscriptWriter } from './transcript/writer.js';
import type { BaseHookInput, HookInput, QueryOptions } from './types.js';

/** What `query`'s controls change while the session runs. */
export interface SessionControls {
  model?: string;
  permissionMode?: PermissionMode;
}

/** Runs a sender's "taken" callback; its failure is the sender's, never the loop's. */
export function callQuietly(f: (() => void) | undefined): void {
  try {
    f?.();
  } catch {
    // The sender's bug: the delivery itself went through.
  }
}

/** A text delivered while a turn runs, with the sender's "it was read" callback. */
export interface PendingDelivery {
  text: string;
  onTaken?: () => void;
}

export interface LoopSession {
  readonly options: QueryOptions;
  readonly sessionId: string;
  readonly cwd: string;
  readonly projectRoot: string;
  readonly provider: ProviderName;
  /** The session's own model (what `setModel()` without an argument goes back to). */
  readonly baseModel: string;
  model: string;
  readonly system: SystemBlock[];
  readonly tools: readonly AnyTool[];
  readonly toolDefinitions: readonly ModelToolDefinition[];
  /** The definitions of the next request (with the tools ToolSearch loaded so far). */
  currentToolDefinitions(): readonly ModelToolDefinition[];
  messages: Message[];
  readonly runner: ToolRunner;
  readonly writer: TranscriptWriter | undefined;
  readonly transcriptPath: string;
  readonly hooks: LoopHooks;
  readonly estimator: TokenEstimator;
  readonly usage: UsageAccumulator;
  readonly breakers: LoopBreakers;
  readonly events: EventFactory;
  /** The per-session context text (date, git snapshot) for the first user message. */
  readonly sessionContext: string;
  /**
   * Before each request: makes tools the pool gained since (an MCP `list_changed`) callable and
   * returns the note about deferred tools that appeared or went away (`''` when none).
   */
  refreshTools(): string;
  /** The pool's MCP servers (`system/init.mcp_servers`); `[]` without any. */
  mcpServers(): { name: string; status: string; source: string }[];
  /** Disposes the pool `loadToolPool` gave this session (its MCP servers); a given `toolPool` is the host's. */
  releaseToolPool(): Promise<void>;
  /** `ModelRequest.extra` of every request: `options.requestExtra` plus the pool's betas. */
  readonly requestExtra: Readonly<Record<string, unknown>> | undefined;
  /** The tools' session-context texts (loop/reminders.ts), sent with the first prompt. */
  readonly toolSessionContext: readonly string[];
  /** Temporary rules and model override until the next user prompt (loop/until-next-prompt.ts). */
  readonly untilNextPrompt: UntilNextPrompt;
  /** SessionStart hooks' context, added to the first prompt's message. */
  sessionStartContext: string[];
  /** True until the first prompt has been added (it carries the session context). */
  needsSessionContext: boolean;
  readonly resumed: boolean;
  readonly maxTokens: number;
  readonly contextWindowTokens: number;
  /** Model requests of the whole session. */
  numTurns: number;
  apiDurationMs: number;
  resultIndex: number;
  /** Aborts the running turn now (`interrupt()`). */
  interruptCurrentTurn: (() => void) | undefined;
  /** A host denied with `interrupt: true`: the turn ends once this response's calls have their results. */
  interruptRequested: boolean;
  /** Notices raised where the loop cannot yield (post-call hooks, permission bridge); flushed as events. */
  pendingNotices: { content: string; level: 'info' | 'warning' }[];
  /** A hook asked to stop the agent (`continue: false`). */
  stopRequested: string | undefined;
  /** Texts delivered while a turn runs (background-agent notifications); the turn's next request takes them. */
  pendingDeliveries: PendingDelivery[];
  /**
   * The query's delivery and hold functions, bound once the query has its inbox; tools reach them
   * through `services.inbox` (undefined until bound: a delivery then throws).
   */
  inboxBridge: SessionInbox | undefined;
  headers: Record<string, string> | undefined;
  /** `ModelRequest.sharedPrefixEnd` (a fork's shared context); cleared when a compaction replaces the messages. */
  sharedPrefixEnd: { message: number; block: number } | undefined;
  now: () => Date;
}

/** The last block of `messages` when `resume.sharedPrefix` asks for it. */
function sharedPrefixEndOf(resume: QueryOptions['resume']): LoopSession['sharedPrefixEnd'] {
  const last = resume?.sharedPrefix ? resume.messages.at(-1) : undefined;
  if (!last) return undefined;
  const blocks = typeof last.content === 'string' ? 1 : last.content.length;
  return blocks > 0 ? { message: resume!.messages.length - 1, block: blocks - 1 } : undefined;
}

/** `extra` with the pool's betas appended to `extra.betas` (the caller's first, no duplicates). */
export function withPoolBetas(
  extra: Readonly<Record<string, unknown>> | undefined,
  betas: readonly string[],
): Readonly<Record<string, unknown>> | undefined {
  if (!betas.length) return extra;
  const own = Array.isArray(extra?.betas) ? (extra.betas as unknown[]) : [];
  return { ...extra, betas: [...new Set([...own, ...betas])] };
}

function providerOf(provider: string): ProviderName {
  return provider === 'openai' ? 'openai' : 'anthropic';
}

/** Builds the session (reads memory files and the git snapshot; opens nothing until the first line). */
export async function createLoopSession(
  options: QueryOptions,
  sessionId: string,
  controls: SessionControls,
  postCall: (session: LoopSession) => PostCallSeam,
): Promise<LoopSession> {
  const resume = options.resume;
  const cwd = options.cwd;
  const projectRoot = options.projectRoot ?? cwd;
  const home = options.home ?? homedir();
  const now = options.now ?? (() => new Date());
  const sessionDir = options.sessionDir ?? sessionDirFor(sessionId, home);
  const loaded =
    options.toolPool || options.tools ? undefined : await options.loadToolPool?.({ sessionId, sessionDir });
  const pool = options.toolPool ?? loaded;
  const tools = pool?.callable ?? options.tools ?? [];
  const defs = pool ? [...pool.definitions()] : toolDefinitions(tools);
  const model = controls.model ?? options.model;
  const provider = providerOf(options.modelClient.provider);
  const info = modelInfo(model, provider);
  const maxTokens = options.maxTokens ?? Math.min(info.maxOutputTokens, 32_000);

  // The git snapshot's processes run while the system prompt is assembled.
  const gitPending = resume ? undefined : gitSnapshot(cwd);
  let system: SystemBlock[];
  if (resume?.systemBlocks?.length) {
    system = resume.systemBlocks.map((b) =>
      b.cached
        ? { type: 'text', text: b.text, cache_control: { type: 'ephemeral' } }
        : { type: 'text', text: b.text },
    );
  } else {
    const memory =
      options.memory === false ? [] : loadMemoryFiles({ cwd, projectRoot: findGitRoot(cwd), home });
    system = assembleSystemPrompt({
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.appendSystemPrompt ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
      tools,
      environment: environmentFacts({
        cwd,
        additionalDirectories: options.additionalDirectories ?? [],
        model,
      }),
      memory,
    });
  }
  const git = await gitPending;
  const persist = options.transcript?.persist !== false;
  const transcriptPath =
    resume?.transcriptPath ??
    (persist
      ? (options.transcript?.path ??
        transcriptPathFor(options.transcript?.gantryHome ?? defaultGantryHome(home), cwd, sessionId))
      : '');
  const writer =
    transcriptPath && persist
      ? new TranscriptWriter({
          file: transcriptPath,
          sessionId,
          cwd,
          ...(git?.branch ? { gitBranch: git.branch } : {}),
          ...(options.agentId ? { agentId: options.agentId } : {}),
          ...(options.transcript?.fsync ? { fsync: options.transcript.fsync } : {}),
          lastUuid: resume?.lastUuid ?? null,
          now,
        })
      : undefined;
  const hooks = new LoopHooks({
    ...(options.settingsHooks ? { commands: options.settingsHooks } : {}),
    ...(options.hooks ? { callbacks: options.hooks } : {}),
    cwd,
    projectRoot,
    onProblem: (event, message) =>
      session.pendingNotices.push({
        content: `${event} hook problem (ignored): ${message}`,
        level: 'warning',
      }),
  });
  const estimator = new TokenEstimator();
  estimator.setFixed(system, defs);
  const usage = resume?.costState
    ? UsageAccumulator.fromState(resume.costState, { provider })
    : new UsageAccumulator({ provider });

  // The session object is filled in two steps: the runner's callbacks need the session.
  const session = {} as LoopSession;
  const permissionMode =
    controls.permissionMode ?? options.permissionMode ?? resume?.permissionMode ?? 'default';
  const untilNextPrompt = new UntilNextPrompt(options.permissionEngine, {
    get: () => session.model,
    set: (m) => {
      session.model = resolveModelAlias(provider, m);
    },
  });
  const runner = createToolRunner({
    tools,
    cwd,
    projectRoot,
    sessionDir,
    ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
    sessionId,
    ...(options.planFile ? { planFilePath: options.planFile(sessionId) } : {}),
    // tools that refuse sub-agents or keep per-agent state (EnterWorktree, TodoWrite) read it
    ...(options.agentId ? { agentId: options.agentId } : {}),
    permissionMode,
    model,
    decide: loopDecider({
      ...(options.permissionEngine ? { engine: options.permissionEngine } : {}),
      ...(options.decide ? { decide: options.decide } : {}),
      hooks,
      transcriptPath: writer ? transcriptPath : '',
    }),
    ...(options.canUseTool
      ? {
          canUseTool: bridgeCanUseTool(options.canUseTool, {
            ...(options.permissionEngine ? { engine: options.permissionEngine } : {}),
            ...(options.agentId ? { agentId: options.agentId } : {}),
            ...(options.agentType ? { agentType: options.agentType } : {}),
            setMode: (mode) => session.runner.setPermissionMode(mode),
            onInterrupt: () => {
              session.interruptRequested = true;
            },
            onProblem: (message) => session.pendingNotices.push({ content: message, level: 'warning' }),
          }),
        }
      : {}),
    ...(options.toolResultLimits ? { limits: options.toolResultLimits } : {}),
    postCall: async (event) => {
      const hooked = await postCall(session)(event);
      const reminder = await toolAfterCallMessage(session, event);
      if (!reminder) return hooked;
      return { newMessages: [...(hooked?.newMessages ?? []), reminder] };
    },
    modelClient: options.modelClient,
    ...(options.taskRegistry ? { tasks: options.taskRegistry } : {}),
    ...(options.runSubagent ? { runSubagent: options.runSubagent } : {}),
    services: {
      hooks: toolHookRunner(() => session),
      untilNextPrompt,
      inbox: {
        deliver: (text: string, options?: DeliveryOptions) => {
          if (!session.inboxBridge) throw new Error('the session has no running loop to deliver to');
          session.inboxBridge.deliver(text, options);
        },
        // A sub-agent's loop is not held open by its tools' work (a Monitor watch): its Agent call
        // returns when the sub-agent is done; later deliveries find no loop and the source stops.
        hold: (until: Promise<unknown>) => {
          if (options.agentId === undefined) session.inboxBridge?.hold(until);
        },
        whenPending: (signal: AbortSignal) =>
          session.inboxBridge?.whenPending?.(signal) ?? Promise.resolve(undefined),
      },
      ...(writer ? { sessionStateDir: transcriptPath.replace(/\.jsonl$/, '') } : {}),
      onWorkingDirectoryChange: (dir: string) => session.hooks.setCwd(dir),
    },
  });
  Object.assign(session, {
    options,
    sessionId,
    cwd,
    projectRoot,
    provider,
    baseModel: options.model,
    model,
    system,
    tools,
    toolDefinitions: defs,
    currentToolDefinitions: () =>
      pool?.definitionsFor ? pool.definitionsFor(session.runner.discoveredToolNames) : defs,
    refreshTools: () => {
      if (!pool?.definitionsFor) return '';
      session.runner.addNewTools(pool.callable);
      return pool.deferredToolsDelta?.(session.runner.discoveredToolNames) ?? '';
    },
    mcpServers: () => pool?.mcpServers?.() ?? [],
    releaseToolPool: async () => {
      await loaded?.dispose?.();
    },
    requestExtra: withPoolBetas(options.requestExtra, pool?.requestBetas?.() ?? []),
    messages: resume ? [...resume.messages] : [],
    runner,
    writer,
    transcriptPath: writer ? transcriptPath : '',
    hooks,
    estimator,
    usage,
    breakers: new LoopBreakers(
      options.repeatedCallLimit ?? DEFAULT_REPEATED_CALL_LIMIT,
      options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS,
    ),
    events: new EventFactory(
      {
        sessionId,
        parentToolUseId: options.parentToolUseId ?? null,
        ...(options.agentId ? { agentId: options.agentId } : {}),
        ...(options.agentType ? { agentType: options.agentType } : {}),
      },
      now,
    ),
    sessionContext: [
      sessionContextText({ now: now(), ...(git ? { git } : {}) }),
      pool?.deferredToolsSection?.() ?? '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    toolSessionContext: await toolSessionContexts(tools),
    untilNextPrompt,
    sessionStartContext: [],
    needsSessionContext: !resume || resume.messages.length === 0,
    resumed: resume !== undefined,
    maxTokens,
    contextWindowTokens: options.autoCompact?.contextWindowTokens ?? info.contextWindow,
    numTurns: resume?.numTurns ?? 0,
    apiDurationMs: 0,
    resultIndex: 0,
    interruptCurrentTurn: undefined,
    interruptRequested: false,
    pendingNotices: [],
    stopRequested: undefined,
    pendingDeliveries: [],
    inboxBridge: undefined,
    headers: options.agentId ? { 'x-gantry-agent-id': options.agentId } : undefined,
    sharedPrefixEnd: sharedPrefixEndOf(resume),
    now,
  } satisfies Omit<LoopSession, never>);
  if (writer && !resume) {
    writer.promptSnapshot(
      system.map((b) => ({ text: b.text, cached: b.cache_control !== undefined })),
      { model: options.model },
    );
  }
  for (const consumer of options.transcriptConsumers ?? [])
    consumer.setTranscriptSource(() => session.messages);
  return session;
}

/**
 * The hooks of events tools fire (TaskCreated, TaskCompleted), as the tools see them: the session's
 * common input fields plus the tool's own, read with the loop's hook rules.
 */
function toolHookRunner(getSession: () => LoopSession): ToolHookRunner {
  return {
    async run(event, input, options) {
      const s = getSession();
      const outcome = await s.hooks.run(event, { ...hookBase(s, event), ...input } as unknown as HookInput, {
        signal: options.signal,
        ...(options.toolUseId ? { toolUseId: options.toolUseId } : {}),
      });
      return {
        ...(outcome.block ? { blocked: { reason: outcome.block.reason } } : {}),
        errors: outcome.errors,
        ...(outcome.texts.length ? { texts: outcome.texts } : {}),
        ...(outcome.worktreePath ? { worktreePath: outcome.worktreePath } : {}),
      };
    },
    has: (event) => getSession().hooks.has(event),
  };
}

/** A fresh prompt id (Claude Code's `promptId`). */
export function newPromptId(): string {
  return randomUUID();
}

/** The fields every hook input of this session carries. */
export function hookBase(
  s: LoopSession,
  event: BaseHookInput['hook_event_name'],
  promptId?: string,
): BaseHookInput {
  return {
    session_id: s.sessionId,
    transcript_path: s.transcriptPath,
    cwd: s.runner.cwd,
    permission_mode: s.runner.permissionMode,
    hook_event_name: event,
    ...(promptId ? { prompt_id: promptId } : {}),
    ...(s.options.agentId ? { agent_id: s.options.agentId } : {}),
    ...(s.options.agentType ? { agent_type: s.options.agentType } : {}),
  };
}
