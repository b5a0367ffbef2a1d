/**
 * `query(options)`: the agent loop as an async generator of Agent-SDK-shaped events (contract in
 * types.ts, walkthrough in docs/loop.md).
 *
 * Session: SessionStart hooks → for each prompt from the input (the prompt option, `pushInput`) one
 * turn ending in one `result` (prompt-turn.ts) → SessionEnd hooks. Input that arrives while a turn
 * runs waits in the inbox; the turn takes it into its next tool-result message when it goes on,
 * otherwise it becomes the next prompt.
 *
 * Ending: the input ends (string prompt: after its turn), `close()` or the abort signal (the running
 * turn is aborted — every tool_use still gets its result — and no further prompt runs), or the
 * consumer leaves the loop early (`return()`), which aborts the same way before the transcript is
 * closed. Errors inside a turn become its `result`; only a bug in the loop itself is thrown.
 */
import { randomUUID } from 'node:crypto';
import { contentText } from '../core/content.js';
import { errorMessage } from '../core/errors.js';
import type { Message } from '../core/messages.js';
import type { PermissionMode } from '../core/permission-types.js';
import { hookContextText } from './hooks.js';
import { Inbox } from './inbox.js';
import { toUserInputMessage } from './input-queue.js';
import { runPrompt } from './prompt-turn.js';
import { startSessionTools } from './start-session-tools.js';
import { buildResult } from './result.js';
import { registerLoopHandle } from './subagent-host.js';
import { createLoopSession, hookBase, type LoopSession, type SessionControls } from './session.js';
import type { PostCallSeam } from './tool-runner.js';
import type { DeliveryOptions, PendingKind } from '../core/services.js';
import type {
  HookInput,
  Query,
  QueryEvent,
  QueryOptions,
  QueryResult,
  ResultEvent,
  UserInputMessage,
} from './types.js';

/** How long a session whose input ended waits for its background agents (ms). */
export const DEFAULT_BACKGROUND_WAIT_MS = 10 * 60_000;

/** PostToolUse / PostToolUseFailure hooks as the tool runner's post-call seam. */
function postToolUseSeam(s: LoopSession): PostCallSeam {
  return async ({ call, block, signal }) => {
    const ok = call.status === 'ok';
    const event = ok ? 'PostToolUse' : 'PostToolUseFailure';
    if (!s.hooks.has(event)) return undefined;
    const base = {
      ...hookBase(s, event),
      tool_name: call.toolName,
      tool_input: call.hookInput ?? call.input ?? {},
      tool_use_id: call.toolUseId,
    };
    const outcome = ok
      ? await s.hooks.run(
          'PostToolUse',
          {
            ...base,
            hook_event_name: 'PostToolUse',
            tool_response: call.data,
            duration_ms: Math.round(call.durationMs),
          },
          { matchValue: call.toolName, toolUseId: call.toolUseId, signal },
        )
      : await s.hooks.run(
          'PostToolUseFailure',
          {
            ...base,
            hook_event_name: 'PostToolUseFailure',
            error: contentText(block.content),
            ...(call.status === 'aborted' ? { is_interrupt: true } : {}),
            duration_ms: Math.round(call.durationMs),
          },
          { matchValue: call.toolName, toolUseId: call.toolUseId, signal },
        );
    for (const m of outcome.systemMessages) s.pendingNotices.push({ content: m, level: 'info' });
    if (outcome.stop) s.stopRequested = outcome.stop.reason;
    const texts = [...outcome.additionalContext, ...(outcome.block ? [outcome.block.reason] : [])];
    if (!texts.length) return undefined;
    const message: Message = {
      role: 'user',
      content: [
        {
          type: 'text',
          text: hookContextText(event, [`(${call.toolName} call ${call.toolUseId})`, ...texts]),
        },
      ],
    };
    return { newMessages: [message] };
  };
}

/** Starts a session (see the module comment). */
export function query(options: QueryOptions): Query {
  if (!options.tools && !options.toolPool && !options.loadToolPool)
    throw new TypeError('query: give `tools`, `toolPool` or `loadToolPool`');
  if (!options.modelClient) throw new TypeError('query: `modelClient` is required');
  const sessionId = options.sessionId ?? options.resume?.sessionId ?? randomUUID();
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.abortSignal?.reason);
  if (options.abortSignal?.aborted) controller.abort(options.abortSignal.reason);
  else options.abortSignal?.addEventListener('abort', onOuterAbort, { once: true });

  const inbox = new Inbox();
  const controls: SessionControls = {};
  let session: LoopSession | undefined;
  let turnController: AbortController | undefined;
  let pumpIterator: AsyncIterator<UserInputMessage> | undefined;

  const prompt = options.prompt;
  if (typeof prompt === 'string' || Array.isArray(prompt)) {
    inbox.push(toUserInputMessage(prompt));
    inbox.close();
  } else {
    pumpIterator = prompt[Symbol.asyncIterator]();
    const it = pumpIterator;
    void (async () => {
      try {
        for (;;) {
          const step = await it.next();
          if (step.done || inbox.closed) break;
          inbox.push(step.value);
        }
      } catch {
        // A failing input iterable ends the input.
      } finally {
        if (!inbox.closed) inbox.close();
      }
    })();
  }

  async function* run(): AsyncGenerator<QueryEvent, QueryResult, void> {
    const results: ResultEvent[] = [];
    session = await createLoopSession(options, sessionId, controls, postToolUseSeam);
    const s = session;
    let turnRunning = false;
    // Scheduled prompts that came due while a turn ran: each becomes a turn of its own after it.
    const afterTurn: UserInputMessage[] = [];
    const deliverText = (text: string, delivery: DeliveryOptions = {}): void => {
      const message: UserInputMessage = {
        ...toUserInputMessage(text),
        isSynthetic: true,
        ...(delivery.source ? { source: delivery.source } : {}),
      };
      if (!turnRunning) inbox.deliver(message, delivery.onTaken);
      else {
        if (delivery.source) {
          inbox.setOnTaken(message, delivery.onTaken);
          afterTurn.push(message);
        } else s.pendingDeliveries.push({ text, ...(delivery.onTaken ? { onTaken: delivery.onTaken } : {}) });
        inbox.announce();
      }
    };
    const holdOpen = (until: Promise<unknown>): void =>
      inbox.hold(until, options.backgroundWaitMs ?? DEFAULT_BACKGROUND_WAIT_MS);
    const pendingKind = (): PendingKind | undefined =>
      inbox.hasItems || s.pendingDeliveries.length > 0
        ? 'message'
        : afterTurn.length > 0
          ? 'scheduled'
          : undefined;
    const whenPending = (signal: AbortSignal): Promise<PendingKind | undefined> =>
      new Promise((resolve) => {
        const now = pendingKind();
        if (now) return resolve(now);
        // The input may have ended (`-p`); deliveries still arrive until the session ends.
        if (signal.aborted || controller.signal.aborted) return resolve(undefined);
        const done = (value: PendingKind | undefined) => {
          stopListening();
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        };
        const onAbort = () => done(undefined);
        const stopListening = inbox.onArrival(() =>
          done(controller.signal.aborted ? undefined : pendingKind()),
        );
        signal.addEventListener('abort', onAbort, { once: true });
      });
    // Tools reach these through `services.inbox` (Monitor events, fired prompts, Sleep).
    s.inboxBridge = { deliver: deliverText, hold: holdOpen, whenPending };
    registerLoopHandle(s.runner.services, {
      sessionId,
      options,
      model: () => s.model,
      system: s.system,
      tools: s.tools,
      toolDefinitions: s.toolDefinitions,
      messages: () => s.messages,
      transcriptPath: s.transcriptPath,
      permissionMode: () => s.runner.permissionMode,
      cwd: () => s.runner.cwd,
      tasks: s.runner.services.tasks,
      depth: options.agentDepth ?? 0,
      deliver: (text) => deliverText(text),
      hold: (until) => holdOpen(until),
      runSubagentHook: async (event, agent, signal) => {
        if (!s.hooks.has(event)) return { additionalContext: [] };
        const base = { ...hookBase(s, event), agent_id: agent.agentId, agent_type: agent.agentType };
        const input: HookInput =
          event === 'SubagentStart'
            ? {
                ...base,
                hook_event_name: 'SubagentStart',
                agent_id: agent.agentId,
                agent_type: agent.agentType,
              }
            : {
                ...base,
                hook_event_name: 'SubagentStop',
                stop_hook_active: agent.stopHookActive === true,
                ...(agent.lastMessage !== undefined ? { last_assistant_message: agent.lastMessage } : {}),
                ...(agent.agentTranscriptPath !== undefined
                  ? { agent_transcript_path: agent.agentTranscriptPath }
                  : {}),
              };
        const out = await s.hooks.run(event, input, { matchValue: agent.agentType, signal });
        for (const m of out.systemMessages) s.pendingNotices.push({ content: m, level: 'info' });
        return {
          additionalContext: [...out.additionalContext, ...out.texts],
          ...(out.block ? { block: out.block } : {}),
          ...(out.stop ? { stop: out.stop } : {}),
        };
      },
    });
    let endReason: 'prompt_input_exit' | 'other' = 'other';
    try {
      const start = await s.hooks.run(
        'SessionStart',
        {
          ...hookBase(s, 'SessionStart'),
          hook_event_name: 'SessionStart',
          source: s.resumed ? 'resume' : 'startup',
          model: s.model,
        },
        { matchValue: s.resumed ? 'resume' : 'startup', signal: controller.signal },
      );
      s.sessionStartContext.push(...start.additionalContext, ...start.texts);
      for (const m of start.systemMessages) s.pendingNotices.push({ content: m, level: 'info' });
      if (start.stop) s.stopRequested = start.stop.reason;
      if ((options.agentDepth ?? 0) === 0)
        for (const problem of await startSessionTools(s.tools, s.runner.context))
          s.pendingNotices.push({ content: problem, level: 'warning' });

      while (!controller.signal.aborted && s.stopRequested === undefined) {
        let stopWaiting: (() => void) | undefined;
        const next = await Promise.race([
          inbox.next(),
          new Promise<undefined>((resolve) => {
            if (controller.signal.aborted) resolve(undefined);
            stopWaiting = () => resolve(undefined);
            controller.signal.addEventListener('abort', stopWaiting, { once: true });
          }),
        ]);
        if (stopWaiting) controller.signal.removeEventListener('abort', stopWaiting);
        if (!next) {
          if (!controller.signal.aborted) endReason = 'prompt_input_exit';
          break;
        }
        const tc = new AbortController();
        turnController = tc;
        const onAbort = () => tc.abort(controller.signal.reason);
        controller.signal.addEventListener('abort', onAbort, { once: true });
        s.interruptCurrentTurn = () => tc.abort();
        const turn = runPrompt(s, next, { signal: tc.signal, takeQueued: () => inbox.takeAll() });
        turnRunning = true;
        let settled = false;
        try {
          let result: ResultEvent | undefined;
          try {
            for (;;) {
              const step = await turn.next();
              if (step.done) {
                result = step.value;
                break;
              }
              yield step.value;
            }
          } catch (error) {
            // A bug in the loop: still close the turn with a result, and keep the transcript valid.
            result = buildResult(s, {
              subtype: 'error_during_execution',
              isError: true,
              errors: [`Internal error in the agent loop: ${errorMessage(error)}`],
              numTurns: 0,
              durationMs: 0,
              apiMs: 0,
              stopReason: null,
              denials: [],
              terminal: 'internal_error',
            });
          }
          settled = true;
          results.push(result);
          yield result;
        } finally {
          if (!settled) {
            // The consumer left while the turn ran: abort it and let it finish quietly, so every
            // tool_use gets its result in the conversation and the transcript.
            tc.abort();
            try {
              for (;;) if ((await turn.next()).done) break;
            } catch {
              // The transcript keeps what was written; nothing more to save.
            }
          }
          turnRunning = false;
          // Deliveries the turn did not take become the next prompt.
          for (const d of s.pendingDeliveries.splice(0))
            inbox.deliver({ ...toUserInputMessage(d.text), isSynthetic: true }, d.onTaken);
          for (const message of afterTurn.splice(0)) inbox.deliver(message);
          controller.signal.removeEventListener('abort', onAbort);
          s.interruptCurrentTurn = undefined;
          turnController = undefined;
        }
      }
    } finally {
      // Reached on normal end, on abort, and when the consumer returns early.
      s.inboxBridge = undefined;
      controller.abort();
      inbox.closeNow();
      void pumpIterator?.return?.();
      options.abortSignal?.removeEventListener('abort', onOuterAbort);
      const end = s.hooks.has('SessionEnd')
        ? s.hooks.run(
            'SessionEnd',
            { ...hookBase(s, 'SessionEnd'), hook_event_name: 'SessionEnd', reason: endReason },
            { timeoutMs: 1_500 },
          )
        : undefined;
      await end?.catch(() => undefined);
      await s.runner.dispose();
      await s.releaseToolPool().catch(() => undefined);
      s.writer?.close();
    }
    return {
      result: results[results.length - 1],
      results,
      messages: s.messages,
      sessionId,
      ...(s.transcriptPath ? { transcriptPath: s.transcriptPath } : {}),
    };
  }

  const generator = run();
  const q = generator as Query;
  Object.defineProperty(q, 'sessionId', { value: sessionId, enumerable: true });
  return Object.assign(q, {
    async interrupt() {
      turnController?.abort();
    },
    async setPermissionMode(mode: PermissionMode) {
      controls.permissionMode = mode;
      session?.runner.setPermissionMode(mode);
    },
    async setModel(model?: string) {
      controls.model = model;
      if (session) session.model = model ?? session.baseModel;
    },
    pushInput(message: UserInputMessage | string) {
      inbox.push(toUserInputMessage(message));
    },
    deliver(text: string) {
      const bridge = session?.inboxBridge;
      if (!bridge) return false;
      bridge.deliver(text);
      return true;
    },
    endInput() {
      if (!inbox.closed) inbox.close();
      void pumpIterator?.return?.();
    },
    close() {
      controller.abort();
      inbox.closeNow();
    },
  });
}
