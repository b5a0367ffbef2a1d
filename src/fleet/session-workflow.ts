/**
 * A session as a durable workflow (docs/fleet.md, "Sessions"): the workflow's input is the
 * session's prompt, settings, model and working directory; its body is the ordinary agent loop
 * (`createAgent` + `query`), given two seams — a model client whose responses are journaled
 * (durable-model.ts) and tools whose calls are journaled by `tool_use_id` (durable-tools.ts), both
 * in the workflow's call journal (engine.ts `CallJournal`) —
 * and a `canUseTool` that turns each ask into a parked wait for a message (approvals).
 *
 * Each execution (first start, or a recovery after a crash) runs the loop from the start: what
 * is journaled replays, the rest runs. The transcript is written afresh by every execution to
 * `<fleet home>/transcripts/<session>.jsonl`, so it always holds the whole session in the usual
 * format (`gantry replay` reads it).
 *
 * Asks: the pending asks are published as the `asks` event (`PendingAsk[]`); the answer is the
 * message `approval:<tool_use_id>` (`ApprovalMessage`); no answer within the approval timeout is a
 * deny. Cancellation (the engine's) aborts the loop; the workflow then ends as cancelled. Any
 * other engine error inside the loop (a journal that does not match the replay, a takeover by
 * another worker, a lost database) aborts the loop too and fails the workflow with that error
 * (a worker that lost the session to another records nothing: the new owner's outcome stands).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { AnyTool } from '../core/index.js';
import type { ModelClient } from '../core/model-client.js';
import { createAgent } from '../loop/agent.js';
import type { CanUseTool, ResultEvent } from '../loop/types.js';
import { getAllBaseTools } from '../tools/index.js';
import type { WorkflowContext, WorkflowFunction } from './engine.js';
import { durableModelClient } from './durable-model.js';
import { durableTools } from './durable-tools.js';
import { defaultWorkRoot, placeSession } from './placement.js';
import {
  ASKS_EVENT,
  type ApprovalMessage,
  approvalTopic,
  type PendingAsk,
  type SessionInput,
  type SessionOutput,
} from './session-types.js';

/** Default wait for an approval: one day. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60_000;

export interface SessionWorkerDeps {
  workerId: string;
  /** `~/.gantry/fleet` (transcripts). */
  fleetHome: string;
  /** Where `repo` sessions' checkouts go (placement.ts `defaultWorkRoot`). */
  workRoot?: string;
  /** `$HOME` for settings, memory files and session folders. */
  home?: string;
  /** Environment for the model configuration and the tools. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The real model client for a session (default: from `env`, `provider` and `model`). */
  modelClientFor: (input: SessionInput) => { client: ModelClient; model: string };
  /** Waits before each real model request (the model-API rate limit). */
  beforeModelRequest?: () => Promise<void>;
  /** Changes the session's tool list before it is journaled (a host's own tools). */
  tools?: (builtIn: AnyTool[]) => AnyTool[];
  /** Observes each journaled call (tests, logs). */
  onToolCall?: (sessionId: string, event: { toolUseId: string; toolName: string; outcome: string }) => void;
}

export function transcriptPathOf(fleetHome: string, sessionId: string): string {
  return path.join(fleetHome, 'transcripts', `${sessionId}.jsonl`);
}

/**
 * Any error escaping a durable call is the engine's (the seams keep their own errors inside their
 * records): a cancellation, a journal that no longer matches the run (a nondeterministic
 * replay), a takeover of the session by another execution, or a lost database. It aborts `controller` and is kept in `failure`, so the workflow
 * ends with it (cancelled, or failed) instead of the loop reporting it as a model error.
 */
function guarded(
  ctx: WorkflowContext,
  controller: AbortController,
  failure: { error?: unknown },
): WorkflowContext {
  const guard = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } catch (error) {
      if (!controller.signal.aborted) {
        failure.error ??= error;
        controller.abort(error);
      }
      throw error;
    }
  };
  return {
    get workflowId() {
      return ctx.workflowId;
    },
    step: (name, fn) => guard(ctx.step(name, fn)),
    recv: (topic, timeoutMs) => guard(ctx.recv(topic, timeoutMs)),
    setEvent: (key, value) => guard(ctx.setEvent(key, value)),
    isCancellation: (e) => ctx.isCancellation(e),
    async openCalls(executionId) {
      const calls = await guard(ctx.openCalls(executionId));
      return {
        entries: calls.entries,
        claim: (key) => guard(calls.claim(key)),
        record: (key, value) => guard(calls.record(key, value)),
      };
    },
  };
}

function approvalsFor(ctx: WorkflowContext, timeoutMs: number): CanUseTool {
  const pending = new Map<string, PendingAsk>();
  return async (toolName, input, options) => {
    const now = Date.now();
    pending.set(options.toolUseID, {
      toolUseId: options.toolUseID,
      toolName,
      input,
      reason: options.decisionReason,
      askedAt: now,
      expiresAt: now + timeoutMs,
    });
    await ctx.setEvent(ASKS_EVENT, [...pending.values()]);
    const answer = await ctx.recv<ApprovalMessage>(approvalTopic(options.toolUseID), timeoutMs);
    pending.delete(options.toolUseID);
    await ctx.setEvent(ASKS_EVENT, [...pending.values()]);
    if (!answer) {
      return {
        behavior: 'deny',
        message: `No answer to this permission request within ${Math.round(timeoutMs / 1000)} s: denied.`,
      };
    }
    if (answer.allow) return { behavior: 'allow' };
    return { behavior: 'deny', message: answer.message || `Denied${answer.by ? ` (${answer.by})` : ''}.` };
  };
}

export function sessionWorkflow(deps: SessionWorkerDeps): WorkflowFunction<SessionInput, SessionOutput> {
  return async (outerCtx, input) => {
    const controller = new AbortController();
    const failure: { error?: unknown } = {};
    const ctx = guarded(outerCtx, controller, failure);
    const sessionId = ctx.workflowId;
    const executionId = randomUUID();
    const placement = await placeSession({
      sessionId,
      executionId,
      workRoot: deps.workRoot ?? defaultWorkRoot(deps.env),
      ...(input.cwd ? { cwd: input.cwd } : {}),
      ...(input.repo ? { repo: input.repo } : {}),
      ...(input.branch ? { branch: input.branch } : {}),
    });
    const transcriptPath = transcriptPathOf(deps.fleetHome, sessionId);
    mkdirSync(path.dirname(transcriptPath), { recursive: true });
    rmSync(transcriptPath, { force: true });
    const interrupted: string[] = [];
    try {
      const { client, model } = deps.modelClientFor(input);
      const calls = await ctx.openCalls(executionId);
      const modelClient = durableModelClient(client, calls, {
        ...(deps.beforeModelRequest ? { beforeRequest: deps.beforeModelRequest } : {}),
      });
      const base = await getAllBaseTools({
        modelProvider: client.provider,
        ...(deps.env ? { env: deps.env } : {}),
      });
      const tools = durableTools(deps.tools ? deps.tools(base) : base, {
        calls,
        afterEffect: (toolName) => placement.checkpoint(toolName),
        onCall: (event) => {
          if (event.outcome === 'interrupted') interrupted.push(event.toolUseId);
          deps.onToolCall?.(sessionId, event);
        },
      });
      const agent = createAgent({
        cwd: placement.cwd,
        model,
        modelClient,
        tools,
        ...(deps.home ? { home: deps.home } : {}),
        ...(deps.env ? { env: deps.env } : {}),
        ...(input.permissionMode ? { permissionMode: input.permissionMode } : {}),
        settings: {
          ...(input.allowedTools ? { allowedTools: input.allowedTools } : {}),
          ...(input.disallowedTools ? { disallowedTools: input.disallowedTools } : {}),
          ...(input.settingsFiles ? { files: input.settingsFiles } : {}),
        },
        ...(input.maxTurns ? { maxTurns: input.maxTurns } : {}),
        canUseTool: approvalsFor(ctx, input.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS),
        transcript: { path: transcriptPath },
        abortSignal: controller.signal,
      });
      let result: ResultEvent | undefined;
      for await (const event of agent.query(input.prompt, { sessionId })) {
        if (event.type === 'result') result = event;
      }
      // The engine's error ends the workflow (cancelled, or failed with it), never a result
      // that reads as the user's interrupt.
      if (failure.error !== undefined) throw failure.error;
      return {
        subtype: result?.subtype ?? 'error_during_execution',
        isError: result?.is_error ?? true,
        result: result?.result ?? (result?.errors ?? []).join('\n'),
        numTurns: result?.num_turns ?? 0,
        transcriptPath,
        workerId: deps.workerId,
        interruptedCalls: interrupted,
      };
    } finally {
      // A repository checkout is this execution's own; the branch keeps the work.
      if (input.repo) await placement.release().catch(() => undefined);
    }
  };
}
