/**
 * One prompt's turn: from the prompt to its `result` (docs/loop.md, "A turn").
 *
 *   init → UserPromptSubmit hooks (may block, add context) → the prompt joins the conversation →
 *   repeat { limits (turns, budget) → prompts queued mid-turn join the tool-result message →
 *            compaction if the context is near full → one response with its tools (response.ts) }
 *   until the model stops without calling tools (Stop hooks may send it back, at most 8 times in
 *   a row), a limit, an error, an interrupt or a hook's `continue: false` → `result`.
 *
 * Every outcome ends with exactly one `result`; the conversation stays valid for the next prompt
 * (every tool_use answered; an interrupted turn gets a note saying so).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Message, StopReason, UserContentBlock } from '../core/messages.js';
import { ModelError } from '../core/model-client.js';
import { maybeCompact } from './compaction-step.js';
import { hookContextText } from './hooks.js';
import { appendUserPart, assistantText, type UserPart } from './messages.js';
import { runResponse } from './response.js';
import { buildResult, type ResultFacts } from './result.js';
import { callQuietly, hookBase, type LoopSession, newPromptId } from './session.js';
import type { PermissionDenial, QueryEvent, ResultEvent, UserInputMessage } from './types.js';
import { GANTRY_VERSION } from './version.js';

/** Consecutive Stop-hook blocks honoured before the turn ends anyway (Claude Code's cap). */
export const MAX_STOP_HOOK_BLOCKS = 8;

export const INTERRUPTED_TEXT = '[The user interrupted this turn before it finished.]';

export interface TurnControl {
  /** Aborted by `interrupt()` (this turn) or by the session's abort. */
  signal: AbortSignal;
  /** Prompts that arrived while the turn ran (taken once). */
  takeQueued(): UserInputMessage[];
}

function promptText(content: string | UserContentBlock[]): string {
  if (typeof content === 'string') return content;
  return content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');
}

/** The text a prompt that arrived mid-turn reaches the model as. */
export function queuedPromptText(text: string): string {
  return `<system-reminder>\nThe user sent this message while you were working:\n${text}\nIf it changes what you are doing, adjust now; otherwise finish the current step first and then answer it.\n</system-reminder>`;
}

function* flushNotices(s: LoopSession): Generator<QueryEvent> {
  for (const n of s.pendingNotices.splice(0)) {
    s.writer?.informational(n.content, n.level);
    yield s.events.informational(n.content, n.level);
  }
}

/** Adds a user part to the conversation and the transcript. */
function addUser(
  s: LoopSession,
  part: UserPart,
  extra: { promptId?: string; isMeta?: boolean; isSynthetic?: boolean } = {},
): void {
  appendUserPart(s.messages, part);
  s.writer?.userContent(part, {
    ...extra,
    ...(extra.promptId && !extra.isMeta ? { permissionMode: s.runner.permissionMode } : {}),
  });
}

/** Runs one prompt to its result (see the module comment). */
export async function* runPrompt(
  s: LoopSession,
  input: UserInputMessage,
  ctl: TurnControl,
): AsyncGenerator<QueryEvent, ResultEvent, void> {
  const o = s.options;
  const startMs = performance.now();
  const denials: PermissionDenial[] = [];
  let numTurns = 0;
  let apiMs = 0;
  let stopReason: StopReason | null = null;
  let lastMessage: Message | undefined;
  const promptId = newPromptId();
  // A new prompt: what a skill granted until the next message ends here.
  s.untilNextPrompt.clear();
  const finish = (
    f: Omit<ResultFacts, 'numTurns' | 'durationMs' | 'apiMs' | 'denials' | 'stopReason'> & {
      stopReason?: StopReason | null;
    },
  ) =>
    buildResult(s, {
      numTurns,
      durationMs: performance.now() - startMs,
      apiMs,
      denials,
      stopReason: f.stopReason ?? stopReason,
      ...f,
    });

  yield {
    type: 'system',
    subtype: 'init',
    cwd: s.runner.cwd,
    session_id: s.sessionId,
    tools: s.tools.map((t) => (t.name === 'Agent' ? 'Task' : t.name)),
    mcp_servers: s.mcpServers(),
    model: s.model,
    permissionMode: s.runner.permissionMode,
    slash_commands: [],
    apiKeySource: 'none',
    claude_code_version: GANTRY_VERSION,
    output_style: 'default',
    agents: [],
    skills: [],
    plugins: [],
    uuid: randomUUID(),
    ...(o.initExtras ?? {}),
  };
  yield* flushNotices(s);

  const content = input.message.content;
  const submitted = await s.hooks.run(
    'UserPromptSubmit',
    {
      ...hookBase(s, 'UserPromptSubmit', promptId),
      hook_event_name: 'UserPromptSubmit',
      prompt: promptText(content),
      ...(input.source ? { source: input.source } : {}),
    },
    { signal: ctl.signal },
  );
  for (const m of submitted.systemMessages) s.pendingNotices.push({ content: m, level: 'info' });
  yield* flushNotices(s);
  if (submitted.stop || submitted.block) {
    const reason = submitted.stop?.reason ?? submitted.block?.reason ?? '';
    const text = `The prompt was not sent: a UserPromptSubmit hook ${submitted.stop ? 'stopped the session' : 'blocked it'}${reason ? ` (${reason})` : ''}.`;
    s.writer?.informational(text, 'warning');
    yield s.events.informational(text, 'warning');
    if (submitted.stop) s.stopRequested = submitted.stop.reason;
    return finish({
      subtype: 'error_during_execution',
      isError: true,
      errors: [text],
      terminal: submitted.stop ? 'hook_stopped' : 'prompt_blocked',
    });
  }

  // The prompt message: the session context on the first prompt, the prompt, then hook context.
  const parts: { part: UserPart; isMeta: boolean }[] = [];
  if (s.needsSessionContext) {
    parts.push({ part: s.sessionContext, isMeta: true });
    for (const t of s.toolSessionContext) parts.push({ part: t, isMeta: true });
    for (const t of s.sessionStartContext)
      parts.push({ part: hookContextText('SessionStart', [t]), isMeta: true });
  }
  parts.push({ part: content, isMeta: false });
  const promptContext = [...submitted.additionalContext, ...submitted.texts];
  if (promptContext.length)
    parts.push({ part: hookContextText('UserPromptSubmit', promptContext), isMeta: true });

  const probe: Message[] = [];
  for (const p of parts) appendUserPart(probe, p.part);
  const promptTokens = s.estimator.estimateMessage(probe[0] as Message) + s.estimator.rawTokens([]);
  if (promptTokens > s.contextWindowTokens - s.maxTokens) {
    const text = `The prompt is too large for the model: about ${promptTokens} tokens with the system prompt and tools, and ${s.model} accepts ${s.contextWindowTokens - s.maxTokens} before its reply. Send a shorter prompt, or attach the content as a file the agent can read in parts.`;
    return finish({
      subtype: 'error_during_execution',
      isError: true,
      errors: [text],
      terminal: 'prompt_too_long',
    });
  }
  for (const p of parts) addUser(s, p.part, { promptId, isMeta: p.isMeta });
  s.needsSessionContext = false;
  s.writer?.lastPrompt(promptText(content));

  let stopBlocks = 0;
  let reactiveCompactionDone = false;
  for (;;) {
    yield* flushNotices(s);
    if (s.stopRequested !== undefined) {
      return finish({
        subtype: 'success',
        isError: false,
        text: assistantText(lastMessage?.role === 'assistant' ? lastMessage : undefined),
        terminal: 'hook_stopped',
      });
    }
    if (ctl.signal.aborted) {
      addUser(s, INTERRUPTED_TEXT, { isSynthetic: true });
      return finish({
        subtype: 'error_during_execution',
        isError: true,
        errors: ['Interrupted by the user'],
        terminal: 'aborted_tools',
      });
    }
    if (o.maxTurns !== undefined && numTurns >= o.maxTurns) {
      return finish({
        subtype: 'error_max_turns',
        isError: true,
        errors: [`Reached maximum number of turns (${o.maxTurns})`],
        terminal: 'max_turns',
      });
    }
    if (o.maxBudgetUsd !== undefined && s.usage.totalCostUsd >= o.maxBudgetUsd) {
      return finish({
        subtype: 'error_max_budget_usd',
        isError: true,
        errors: [`Reached the maximum budget ($${o.maxBudgetUsd})`],
        terminal: 'max_budget_usd',
      });
    }
    if (numTurns > 0) {
      const delivered = s.pendingDeliveries.splice(0);
      if (delivered.length) {
        const blocks = delivered.map((d) => ({ type: 'text' as const, text: d.text }));
        addUser(s, blocks, { promptId, isMeta: true });
        for (const d of delivered) callQuietly(d.onTaken);
        yield s.events.userText(blocks, true);
      }
      for (const q of ctl.takeQueued()) {
        const text = promptText(q.message.content);
        const hook = await s.hooks.run(
          'UserPromptSubmit',
          { ...hookBase(s, 'UserPromptSubmit', promptId), hook_event_name: 'UserPromptSubmit', prompt: text },
          { signal: ctl.signal },
        );
        if (hook.block || hook.stop) {
          const note = `A prompt sent during the turn was not delivered: a UserPromptSubmit hook blocked it${hook.block?.reason ? ` (${hook.block.reason})` : ''}.`;
          s.pendingNotices.push({ content: note, level: 'warning' });
          continue;
        }
        const folded = [queuedPromptText(text), ...hook.additionalContext, ...hook.texts].join('\n');
        addUser(s, [{ type: 'text', text: folded }], { promptId });
        yield s.events.userText([{ type: 'text', text: folded }], false);
      }
    }

    // Tools that appeared since the last request (an MCP server's list_changed) become callable;
    // new deferred names reach the model as a note (docs/mcp-client.md "Deferred tools").
    const toolsNote = s.refreshTools();
    if (toolsNote)
      addUser(s, [{ type: 'text', text: `<system-reminder>\n${toolsNote}\n</system-reminder>` }], {
        isMeta: true,
      });

    yield* maybeCompact(s, ctl.signal, { trigger: 'auto', force: false });
    const hardLimit = s.contextWindowTokens - s.maxTokens;
    const estimate = s.estimator.estimate(s.messages);
    if (estimate > hardLimit && o.autoCompact?.enabled !== false) {
      const text = `The conversation (about ${estimate} tokens) no longer fits the model's context window (${hardLimit} tokens before the reply) and could not be compacted.`;
      return finish({
        subtype: 'error_during_execution',
        isError: true,
        errors: [text],
        terminal: 'prompt_too_long',
      });
    }

    numTurns++;
    s.numTurns++;
    const r = yield* runResponse(s, ctl.signal, denials);
    apiMs += r.apiMs;
    s.apiDurationMs += r.apiMs;
    if (r.message) lastMessage = r.message;
    stopReason = r.stopReason;
    yield* flushNotices(s);

    if (r.error || ctl.signal.aborted) {
      const aborted = ctl.signal.aborted || (r.error instanceof ModelError && r.error.kind === 'aborted');
      if (aborted) {
        addUser(s, INTERRUPTED_TEXT, { isSynthetic: true });
        yield s.events.userText(INTERRUPTED_TEXT, true);
        return finish({
          subtype: 'error_during_execution',
          isError: true,
          errors: ['Interrupted by the user'],
          terminal: r.error ? 'aborted_streaming' : 'aborted_tools',
        });
      }
      const err = r.error as Error;
      if (
        err instanceof ModelError &&
        err.kind === 'prompt_too_long' &&
        !reactiveCompactionDone &&
        r.entries.length === 0
      ) {
        reactiveCompactionDone = true;
        const compacted = yield* maybeCompact(s, ctl.signal, { trigger: 'auto', force: true });
        if (compacted) continue;
      }
      const status = err instanceof ModelError ? err.status : undefined;
      const text = `API Error: ${status !== undefined ? `${status} ` : ''}${err.message}`;
      s.writer?.informational(text, 'warning');
      return finish({
        subtype: 'success',
        isError: true,
        text,
        errors: [text],
        terminal:
          err instanceof ModelError && err.kind === 'prompt_too_long' ? 'prompt_too_long' : 'api_error',
        ...(status !== undefined ? { apiErrorStatus: status } : {}),
      });
    }
    if (s.interruptRequested) {
      s.interruptRequested = false;
      addUser(s, INTERRUPTED_TEXT, { isSynthetic: true });
      yield s.events.userText(INTERRUPTED_TEXT, true);
      return finish({
        subtype: 'error_during_execution',
        isError: true,
        errors: ['Interrupted: the host denied a call and asked to stop'],
        terminal: 'aborted_tools',
      });
    }
    if (r.budgetRefused) {
      return finish({
        subtype: 'error_during_execution',
        isError: true,
        errors: [`Reached the session's tool-call budget (${o.maxToolCalls ?? 'default'})`],
        terminal: 'tool_call_budget',
      });
    }
    if (r.toolUseCount > 0 || r.stopReason === 'pause_turn') continue;

    // The model stopped: Stop hooks may send it back to work.
    const last = r.message;
    const stop = await s.hooks.run(
      'Stop',
      {
        ...hookBase(s, 'Stop', promptId),
        hook_event_name: 'Stop',
        stop_hook_active: stopBlocks > 0,
        last_assistant_message: assistantText(last),
      },
      { signal: ctl.signal },
    );
    for (const m of stop.systemMessages) s.pendingNotices.push({ content: m, level: 'info' });
    // A sub-agent's SubagentStop hooks (run by the agents room) come after its own Stop hooks.
    const gate =
      !stop.stop && !stop.block && o.subagentStop
        ? await o
            .subagentStop({
              stopHookActive: stopBlocks > 0,
              lastAssistantMessage: assistantText(last),
              signal: ctl.signal,
            })
            .catch((error: unknown) => {
              s.pendingNotices.push({
                content: `SubagentStop hooks failed: ${error instanceof Error ? error.message : String(error)}`,
                level: 'warning',
              });
              return undefined;
            })
        : undefined;
    const stopped = stop.stop ?? gate?.stop;
    const block = stop.block
      ? { event: 'Stop', reason: stop.block.reason }
      : gate?.block
        ? { event: 'SubagentStop', reason: gate.block.reason }
        : undefined;
    if (stopped) s.stopRequested = stopped.reason;
    else if (block) {
      if (stopBlocks < MAX_STOP_HOOK_BLOCKS) {
        stopBlocks++;
        const text = `${block.event} hook feedback:\n${block.reason}`;
        addUser(s, text, { isSynthetic: true, promptId });
        yield s.events.userText(text, true);
        continue;
      }
      s.pendingNotices.push({
        content: `${block.event} hooks blocked ${MAX_STOP_HOOK_BLOCKS} times in a row; the turn ends anyway.`,
        level: 'warning',
      });
    }
    yield* flushNotices(s);
    return finish({
      subtype: 'success',
      isError: false,
      text: assistantText(last),
      terminal: stopped ? 'hook_stopped' : 'completed',
    });
  }
}
