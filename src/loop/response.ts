/**
 * One model request of a turn, from sending to the tool results going into the conversation:
 *
 * 1. stream the response; each content block is written to the transcript and yielded as an
 *    `assistant` event the moment it is complete (`content_block_stop`), and a `tool_use` block is
 *    handed to the tool runner right then (or refused by a loop breaker, in its place);
 * 2. when the stream ends (normally, with an error, or aborted) the tool turn is finished; on an
 *    error or abort the calls still running are aborted — every tool_use still gets its result;
 * 3. progress is yielded as `tool_progress`; the results come back in call order and each becomes
 *    a transcript line and a `user` event; denials are reported; everything goes into one user
 *    message after the assistant message.
 */
import { attachToolReminders } from './reminders.js';
import { performance } from 'node:perf_hooks';
import type { ToolResultBlock, ToolUseBlock } from '../core/content.js';
import type { AssistantContentBlock, AssistantMessage, StopReason, Usage } from '../core/messages.js';
import { emptyUsage } from '../core/messages.js';
import { ModelError, type ModelRequest } from '../core/model-client.js';
import { contentText } from '../core/content.js';
import { partialEvent } from './events.js';
import { appendAssistant, appendUserPart } from './messages.js';
import type { LoopSession } from './session.js';
import type { ToolTurnEntry } from './tool-runner.js';
import type { ForwardedEventProgress, PermissionDenial, QueryEvent, ToolResultMeta } from './types.js';

/** How often a running tool's progress is reported, at most (ms). */
export const TOOL_PROGRESS_INTERVAL_MS = 1_000;

export interface ResponseOutcome {
  message: AssistantMessage | undefined;
  stopReason: StopReason | null;
  usage: Usage;
  toolUseCount: number;
  /** The stream failed (after retries) or was aborted. */
  error?: ModelError | Error;
  entries: ToolTurnEntry[];
  /** A breaker refused a call because the session's tool-call budget is used up. */
  budgetRefused: boolean;
  apiMs: number;
}

function toolResultMeta(entry: ToolTurnEntry): ToolResultMeta {
  const d = entry.call.decision;
  const meta: ToolResultMeta = { id: entry.call.toolUseId };
  if (d && d.behavior !== 'ask')
    meta.permission_decision = {
      decision: d.behavior === 'allow' ? 'accept' : 'reject',
      source: d.source,
    };
  if (entry.call.status === 'refused') meta.non_execution_kind = 'refused';
  else if (d?.behavior === 'deny' && d.source === 'host') meta.non_execution_kind = 'user-rejected';
  return meta;
}

/** True for a tool's progress that carries an event to forward (see `ForwardedEventProgress`). */
export function isForwardedEvent(data: unknown): data is ForwardedEventProgress {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as { kind?: unknown; event?: unknown };
  return (
    d.kind === 'query-event' &&
    typeof d.event === 'object' &&
    d.event !== null &&
    typeof (d.event as { type?: unknown }).type === 'string'
  );
}

/** The `toolUseResult` of a call: its structured output, or the error text (Claude Code's shape). */
export function toolUseResultOf(entry: ToolTurnEntry): unknown {
  if (!entry.call.isError && entry.call.data !== undefined) return entry.call.data;
  return contentText(entry.block.content);
}

/** Streams one response and runs its tools (see the module comment). */
export async function* runResponse(
  s: LoopSession,
  signal: AbortSignal,
  denials: PermissionDenial[],
): AsyncGenerator<QueryEvent, ResponseOutcome, void> {
  const o = s.options;
  attachToolReminders(s);
  const toolTurn = s.runner.startTurn({ signal, messages: s.messages });
  const request: ModelRequest = {
    model: s.model,
    system: s.system,
    messages: s.messages,
    tools: s.currentToolDefinitions(),
    maxTokens: s.maxTokens,
    ...(o.thinking ? { thinking: o.thinking } : {}),
    ...(s.sharedPrefixEnd ? { sharedPrefixEnd: s.sharedPrefixEnd } : {}),
    ...(s.requestExtra ? { extra: s.requestExtra } : {}),
  };
  const rawEstimate = s.estimator.rawTokens(s.messages);
  const blocks: AssistantContentBlock[] = [];
  let meta = { id: '', model: s.model, usage: emptyUsage() };
  let stopReason: StopReason | null = null;
  let finalUsage: Usage | undefined;
  let error: ModelError | Error | undefined;
  let budgetRefused = false;
  let toolUseCount = 0;
  const startedAt = new Map<string, number>();
  const started = performance.now();
  try {
    for await (const e of o.modelClient.stream(request, {
      signal,
      ...(s.headers ? { headers: s.headers } : {}),
    })) {
      if (o.includePartialMessages) {
        const raw = partialEvent(e, stopReason);
        if (raw) yield s.events.stream(raw);
      }
      switch (e.type) {
        case 'message_start':
          meta = { id: e.id, model: e.model || s.model, usage: { ...e.usage } };
          break;
        case 'retry':
          yield s.events.apiRetry(e);
          break;
        case 'message_delta':
          if (e.stopReason) stopReason = e.stopReason;
          break;
        case 'content_block_stop': {
          const block = e.block;
          blocks.push(block);
          s.writer?.assistantBlock(block, {
            messageId: meta.id,
            model: meta.model,
            usage: meta.usage,
            stopReason: null,
            blockIndex: blocks.length - 1,
          });
          yield s.events.assistant(block, meta);
          if (block.type === 'tool_use') {
            toolUseCount++;
            const verdict = s.breakers.check(block);
            if (verdict.refuse) {
              if (verdict.kind === 'tool-call-budget') budgetRefused = true;
              toolTurn.refuse(block, verdict.text);
            } else {
              startedAt.set(block.id, performance.now());
              toolTurn.add(block as ToolUseBlock);
            }
          }
          break;
        }
        case 'message_stop':
          stopReason = e.stopReason;
          finalUsage = e.usage;
          break;
        default:
          break;
      }
    }
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
  }
  const apiMs = performance.now() - started;
  toolTurn.finish();
  if (error || signal.aborted) toolTurn.abort();

  const usage = finalUsage ?? meta.usage;
  if (finalUsage) {
    s.usage.add(meta.model, finalUsage);
    s.estimator.observe(rawEstimate, finalUsage);
  }
  const message: AssistantMessage | undefined = blocks.length
    ? { role: 'assistant', content: blocks }
    : undefined;
  if (message) appendAssistant(s.messages, message);

  // Tool progress and results.
  let entries: ToolTurnEntry[] = [];
  if (toolTurn.size > 0) {
    const lastProgress = new Map<string, number>();
    const stream = toolTurn.updates();
    for (;;) {
      const step = await stream.next();
      if (step.done) {
        entries = step.value;
        break;
      }
      const u = step.value;
      if (u.type !== 'progress') continue;
      if (isForwardedEvent(u.data)) {
        const ev = u.data.event;
        // A sub-agent's denial is also this session's: listed in its result with the agent id.
        if (ev.type === 'system' && ev.subtype === 'permission_denied' && ev.agent_id) {
          denials.push({
            tool_name: ev.tool_name,
            tool_use_id: ev.tool_use_id,
            tool_input: ev.tool_input ?? {},
            agent_id: ev.agent_id,
          });
        }
        yield ev;
        continue;
      }
      const nowMs = performance.now();
      const last = lastProgress.get(u.toolUseId);
      if (last !== undefined && nowMs - last < TOOL_PROGRESS_INTERVAL_MS) continue;
      lastProgress.set(u.toolUseId, nowMs);
      const since = startedAt.get(u.toolUseId) ?? nowMs;
      yield s.events.toolProgress(u.toolUseId, u.toolName, (nowMs - since) / 1000, u.data);
    }
  }
  const resultBlocks: ToolResultBlock[] = [];
  for (const entry of entries) {
    const meta2 = toolResultMeta(entry);
    const toolUseResult = toolUseResultOf(entry);
    s.writer?.toolResult(entry.block, toolUseResult, meta2);
    resultBlocks.push(entry.block);
    yield s.events.toolResult(entry.block, toolUseResult, meta2);
    if (entry.call.status === 'denied') {
      denials.push({
        tool_name: entry.call.toolName,
        tool_use_id: entry.call.toolUseId,
        tool_input: entry.call.input ?? {},
      });
      yield s.events.permissionDenied(
        entry.call.toolName,
        entry.call.toolUseId,
        contentText(entry.block.content),
        entry.call.decision?.source,
      );
    }
  }
  if (resultBlocks.length) appendUserPart(s.messages, resultBlocks);
  for (const entry of entries) {
    for (const m of entry.newMessages) {
      if (m.role !== 'user') continue;
      appendUserPart(s.messages, m.content);
      s.writer?.userContent(m.content, { isMeta: true });
    }
  }
  s.writer?.sync();
  return {
    message,
    stopReason,
    usage,
    toolUseCount,
    ...(error ? { error } : {}),
    entries,
    budgetRefused,
    apiMs,
  };
}

export { ModelError };
