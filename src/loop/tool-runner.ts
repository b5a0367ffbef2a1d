/**
 * The one module between the loop and `src/runtime/` (docs/runtime.md): everything the loop needs
 * from the runtime goes through `createToolRunner`, so a change of the runtime's API is a change of
 * this file.
 *
 * A turn (`startTurn`) takes `tool_use` blocks while the model streams (`add` queues each one in
 * the session's admission gate at once; it starts as soon as the gate admits it) and blocks the
 * loop refuses itself (`refuse`: a breaker fired; never run, answered in place). `updates()` yields
 * progress and call ends live and returns one entry per block in the model's call order: the
 * `tool_result` block and the call's record (structured `data` — the transcript's `toolUseResult`
 * —, input, permission decision, status).
 *
 * The post-call seam (`postCall`, Claude Code's PostToolUse / PostToolUseFailure) is the runtime's:
 * it runs after each call that started, while the call holds its place in the gate, and what it
 * returns is appended after the turn's results.
 *
 * Per-tool `maxResultSizeChars` overrides (managed settings) are applied by giving the runtime a
 * copy of the tool with that cap; the runtime still clamps it to the global cap.
 */
import {
  type AnyTool,
  type AppState,
  contentText,
  type HostPermissionAnswer,
  type Message,
  type ModelClient,
  type PermissionDecider,
  type PermissionMode,
  type SubagentRunner,
  type ToolResultBlock,
  type ToolUseBlock,
  type ToolUseContext,
} from '../core/index.js';
import {
  type AskDecision,
  type BackgroundTaskManager,
  type CallRecord,
  createSessionServices,
  type SessionServicesHandle,
  createToolRuntime,
  type PostCallEvent as RuntimePostCallEvent,
  type SessionServicesOptions,
  type StreamingToolExecutor,
  type ToolRuntime,
} from '../runtime/index.js';
import type { ToolResultLimits } from './types.js';

/** The host's answer to an ask, in the runtime's shape (see `permissions.ts` for the mapping). */
export type RunnerCanUseTool = (
  tool: AnyTool,
  input: Record<string, unknown>,
  decision: AskDecision,
  context: ToolUseContext,
) => Promise<HostPermissionAnswer>;

export type CallStatus = 'ok' | 'error' | 'denied' | 'aborted' | 'refused';

export interface ToolCallRecord {
  toolUseId: string;
  toolName: string;
  status: CallStatus;
  isError: boolean;
  /** `ToolResult.data` of a call that succeeded. */
  data?: unknown;
  input: Record<string, unknown> | undefined;
  /** The input as hooks see it, when the tool adds fields (ExitPlanMode's `plan`, `planFilePath`). */
  hookInput?: Record<string, unknown>;
  decision?: { behavior: 'allow' | 'ask' | 'deny'; source: string };
  /** The tool's `call` was entered. */
  ran: boolean;
  durationMs: number;
}

export interface ToolTurnEntry {
  block: ToolResultBlock;
  call: ToolCallRecord;
  /** Messages the tool or the post-call seam asked to append after the results. */
  newMessages: Message[];
}

export type ToolRunnerUpdate =
  | { type: 'progress'; toolUseId: string; toolName: string; data: unknown }
  | { type: 'call-end'; toolUseId: string; toolName: string; isError: boolean; durationMs: number };

export interface PostCallEvent {
  call: ToolCallRecord;
  block: ToolResultBlock;
  signal: AbortSignal;
}
export type PostCallSeam = (event: PostCallEvent) => Promise<{ newMessages?: Message[] } | undefined>;

export interface ToolTurn {
  /** Starts a call the model just completed (stream order). */
  add(block: ToolUseBlock): void;
  /** Answers a call the loop refused itself, in its place in the call order; it never runs. */
  refuse(block: ToolUseBlock, text: string): void;
  /** No more calls (call after the model's stream ended, also after an error or abort). */
  finish(): void;
  /** Aborts running calls (each still gets its result) and keeps queued ones from starting. */
  abort(): void;
  readonly size: number;
  updates(): AsyncGenerator<ToolRunnerUpdate, ToolTurnEntry[], void>;
}

export interface ToolRunnerOptions {
  tools: readonly AnyTool[];
  cwd: string;
  projectRoot: string;
  additionalDirectories?: string[];
  sessionId: string;
  sessionDir?: string;
  /** The session's plan file (see `QueryOptions.planFile`). */
  planFilePath?: string;
  permissionMode: PermissionMode;
  model: string;
  decide: PermissionDecider;
  canUseTool?: RunnerCanUseTool;
  limits?: ToolResultLimits;
  postCall?: PostCallSeam;
  /** Shared with the tools through the session services (the Agent tool, WebFetch's prompt step). */
  modelClient?: ModelClient;
  /** Another session's task registry to share (a sub-agent's loop); it is not disposed with this runner. */
  tasks?: BackgroundTaskManager;
  /** How tools start sub-agents (`SessionServices.runSubagent`). */
  runSubagent?: SubagentRunner;
  /** The rest of the session services tools may use (hooks they fire, the state directory, …). */
  services?: Omit<SessionServicesOptions, 'modelClient'>;
  /** The sub-agent whose loop this is (tools see it as `context.agentId`); absent for the main session. */
  agentId?: string;
}

export interface ToolRunner {
  startTurn(options: { signal: AbortSignal; messages: readonly Message[] }): ToolTurn;
  setPermissionMode(mode: PermissionMode): void;
  readonly permissionMode: PermissionMode;
  /** The session's app state as the tools left it (to-do lists, plan file, mode). */
  readonly appState: AppState;
  /** The session's working directory as the tools left it (Bash `cd`). */
  readonly cwd: string;
  /** The runtime's session services (tools see them as `context.services`). */
  readonly services: SessionServicesHandle;
  /** The session's tool context as it is now (what `Tool.startSession` gets). */
  readonly context: ToolUseContext;
  /** Deferred tools loaded by ToolSearch so far, in load order. */
  readonly discoveredToolNames: readonly string[];
  /**
   * Makes tools that appeared during the session callable (an MCP server's `list_changed`): every
   * tool of `callable` whose name the runner does not know yet is added, for the next calls.
   * Returns how many were added. Tools are never removed (a call to a server that went away gets
   * that server's error).
   */
  addNewTools(callable: readonly AnyTool[]): number;
  dispose(): Promise<void>;
}

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' &&
  m !== null &&
  ((m as Message).role === 'user' || (m as Message).role === 'assistant') &&
  'content' in m;

function statusOf(call: CallRecord): CallStatus {
  if (call.decision?.behavior === 'deny') return 'denied';
  if (call.status === 'ok') return 'ok';
  if (call.status === 'aborted' || call.status === 'not-started') return 'aborted';
  return 'error';
}

function toRecord(call: CallRecord, block: ToolUseBlock | undefined): ToolCallRecord {
  const blockInput =
    block?.input && typeof block.input === 'object' && !Array.isArray(block.input)
      ? (block.input as Record<string, unknown>)
      : undefined;
  return {
    toolUseId: call.toolUseId,
    toolName: call.toolName,
    status: statusOf(call),
    isError: call.isError,
    ...(call.data !== undefined ? { data: call.data } : {}),
    input: call.input ?? blockInput,
    ...(call.decision ? { decision: call.decision } : {}),
    ran: call.decision?.behavior === 'allow',
    durationMs: call.durationMs,
  };
}

function postCallRecord(event: RuntimePostCallEvent): ToolCallRecord {
  return {
    toolUseId: event.toolUseId,
    toolName: event.toolName,
    status: event.status,
    isError: event.status !== 'ok',
    ...(event.data !== undefined ? { data: event.data } : {}),
    input: event.input,
    ...(event.hookInput ? { hookInput: event.hookInput } : {}),
    ...(event.decision ? { decision: event.decision } : {}),
    ran: event.ran,
    durationMs: 0,
  };
}

export function createToolRunner(options: ToolRunnerOptions): ToolRunner {
  const perTool = options.limits?.perTool ?? {};
  const withCap = (tool: AnyTool): AnyTool => {
    const cap = perTool[tool.name];
    return typeof cap === 'number' && cap > 0 && Number.isFinite(cap)
      ? { ...tool, maxResultSizeChars: cap }
      : tool;
  };
  // The runtime's context holds this very array, so tools added to it are found by later calls.
  const tools = options.tools.map(withCap);
  const known = new Set(tools.map((t) => t.name));
  const postCall = options.postCall;
  const runtime: ToolRuntime = createToolRuntime({
    tools,
    cwd: options.cwd,
    projectRoot: options.projectRoot,
    ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
    sessionId: options.sessionId,
    ...(options.sessionDir ? { sessionDir: options.sessionDir } : {}),
    ...(options.planFilePath ? { planFilePath: options.planFilePath } : {}),
    ...(options.agentId ? { agentId: options.agentId } : {}),
    permissionMode: options.permissionMode,
    decide: options.decide,
    ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
    services: createSessionServices({
      ...options.services,
      ...(options.tasks ? { tasks: options.tasks, ownsTasks: false } : {}),
      ...(options.modelClient ? { modelClient: options.modelClient } : {}),
      ...(options.runSubagent ? { runSubagent: options.runSubagent } : {}),
    }),
    ...(options.limits?.maxResultSizeChars ? { maxResultSizeChars: options.limits.maxResultSizeChars } : {}),
    ...(options.limits?.maxTurnResultsChars
      ? { maxTurnResultsChars: options.limits.maxTurnResultsChars }
      : {}),
    ...(postCall
      ? {
          postCall: async (event: RuntimePostCallEvent) => {
            if (!event.ran) return undefined;
            const block: ToolResultBlock = {
              type: 'tool_result',
              tool_use_id: event.toolUseId,
              content: event.content,
              ...(event.status !== 'ok' ? { is_error: true } : {}),
            };
            return postCall({ call: postCallRecord(event), block, signal: event.signal });
          },
        }
      : {}),
  });

  const startTurn = (turnOptions: { signal: AbortSignal; messages: readonly Message[] }): ToolTurn => {
    let executor: StreamingToolExecutor | undefined;
    const getExecutor = (): StreamingToolExecutor => {
      executor ??= runtime.createStreamingExecutor({
        signal: turnOptions.signal,
        messages: turnOptions.messages,
      });
      return executor;
    };
    type Slot = { kind: 'run'; block: ToolUseBlock } | { kind: 'refused'; block: ToolUseBlock; text: string };
    const slots: Slot[] = [];
    let finished = false;

    async function* updates(): AsyncGenerator<ToolRunnerUpdate, ToolTurnEntry[], void> {
      const byId = new Map<string, { block: ToolResultBlock; newMessages: Message[]; call: CallRecord }>();
      if (executor) {
        const stream = executor.updates();
        for (;;) {
          const step = await stream.next();
          if (step.done) break;
          const u = step.value;
          if (u.type === 'progress') {
            yield {
              type: 'progress',
              toolUseId: u.event.toolUseId,
              toolName: u.event.toolName,
              data: u.event.data,
            };
          } else if (u.type === 'tool-call-end') {
            yield {
              type: 'call-end',
              toolUseId: u.toolUseId,
              toolName: u.toolName,
              isError: u.isError,
              durationMs: u.durationMs,
            };
          } else {
            byId.set(u.block.tool_use_id, { block: u.block, newMessages: u.newMessages, call: u.call });
          }
        }
      }
      const entries: ToolTurnEntry[] = slots.map((slot) => {
        if (slot.kind === 'refused') {
          const block: ToolResultBlock = {
            type: 'tool_result',
            tool_use_id: slot.block.id,
            content: slot.text,
            is_error: true,
          };
          const input =
            slot.block.input && typeof slot.block.input === 'object' && !Array.isArray(slot.block.input)
              ? (slot.block.input as Record<string, unknown>)
              : undefined;
          return {
            block,
            call: {
              toolUseId: slot.block.id,
              toolName: slot.block.name,
              status: 'refused',
              isError: true,
              input,
              ran: false,
              durationMs: 0,
            },
            newMessages: [],
          };
        }
        const got = byId.get(slot.block.id);
        if (!got) {
          const block: ToolResultBlock = {
            type: 'tool_result',
            tool_use_id: slot.block.id,
            content: `Error: the runtime returned no result for this ${slot.block.name} call.`,
            is_error: true,
          };
          return {
            block,
            call: {
              toolUseId: slot.block.id,
              toolName: slot.block.name,
              status: 'error',
              isError: true,
              input: undefined,
              ran: false,
              durationMs: 0,
            },
            newMessages: [],
          };
        }
        return {
          block: got.block,
          call: toRecord(got.call, slot.block),
          newMessages: got.newMessages.filter(isMessage),
        };
      });
      return entries;
    }

    return {
      add(block) {
        if (finished) throw new Error('ToolTurn: add() after finish()');
        slots.push({ kind: 'run', block });
        getExecutor().addTool(block);
      },
      refuse(block, text) {
        if (finished) throw new Error('ToolTurn: refuse() after finish()');
        slots.push({ kind: 'refused', block, text });
      },
      finish() {
        if (finished) return;
        finished = true;
        executor?.finish();
      },
      abort() {
        executor?.abort();
      },
      get size() {
        return slots.length;
      },
      updates,
    };
  };

  return {
    startTurn,
    setPermissionMode(mode) {
      runtime.context.setAppState((prev) => ({ ...prev, permissionMode: mode }));
    },
    get permissionMode() {
      return runtime.getAppState().permissionMode;
    },
    get appState() {
      return runtime.getAppState();
    },
    get cwd() {
      return runtime.getAppState().cwd;
    },
    services: runtime.services,
    get context() {
      return runtime.context;
    },
    get discoveredToolNames() {
      return runtime.getAppState().discoveredToolNames ?? [];
    },
    addNewTools(callable) {
      let added = 0;
      for (const tool of callable) {
        if (known.has(tool.name)) continue;
        known.add(tool.name);
        tools.push(withCap(tool));
        added++;
      }
      return added;
    },
    async dispose() {
      await runtime.services.dispose();
    },
  };
}

/** The text of a result block (for hook inputs). */
export function resultText(block: ToolResultBlock): string {
  return contentText(block.content);
}
