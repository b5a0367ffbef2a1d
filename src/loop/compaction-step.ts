/**
 * The loop's compaction step (context/compact.ts does the summarising): decides whether to
 * compact before a request, runs PreCompact / PostCompact hooks, swaps the conversation, writes the
 * boundary and the new conversation to the transcript, and emits `compact_boundary`.
 *
 * Auto: when the corrected estimate of the next request reaches `thresholdRatio` (default 0.8) of
 * the context window, or leaves less than `max_tokens` for the reply. `force`: after the API said
 * the prompt is too long. A PreCompact hook that blocks keeps the conversation as it is; a failed
 * summary request is reported (`informational`) and the loop goes on uncompacted.
 */
import { errorMessage } from '../core/errors.js';
import { compactConversation } from './context/compact.js';
import { hookBase, type LoopSession } from './session.js';
import type { QueryEvent } from './types.js';

export const DEFAULT_COMPACT_THRESHOLD_RATIO = 0.8;

/** Compacts when needed; returns true when the conversation was replaced. */
export async function* maybeCompact(
  s: LoopSession,
  signal: AbortSignal,
  opts: { trigger: 'auto' | 'manual'; force: boolean },
): AsyncGenerator<QueryEvent, boolean, void> {
  const settings = s.options.autoCompact ?? {};
  if (settings.enabled === false && opts.trigger === 'auto') return false;
  const window = s.contextWindowTokens;
  const pre = s.estimator.estimate(s.messages);
  const ratio = settings.thresholdRatio ?? DEFAULT_COMPACT_THRESHOLD_RATIO;
  const threshold = Math.min(Math.floor(window * ratio), window - s.maxTokens);
  if (!opts.force && pre < threshold) return false;

  const pc = await s.hooks.run(
    'PreCompact',
    {
      ...hookBase(s, 'PreCompact'),
      hook_event_name: 'PreCompact',
      trigger: opts.trigger,
      custom_instructions: null,
    },
    { matchValue: opts.trigger, signal },
  );
  if (pc.block) {
    const text = `Compaction skipped: a PreCompact hook blocked it (${pc.block.reason}).`;
    s.writer?.informational(text, 'warning');
    yield s.events.informational(text, 'warning');
    return false;
  }
  let result: Awaited<ReturnType<typeof compactConversation>>;
  try {
    result = await compactConversation({
      client: s.options.modelClient,
      model: s.model,
      system: s.system,
      tools: s.currentToolDefinitions(),
      messages: s.messages,
      tokensOf: (m) => s.estimator.estimateMessage(m),
      contextWindowTokens: window,
      keepRecentPrompts: settings.keepRecentPrompts ?? 1,
      maxTokens: s.maxTokens,
      signal,
      ...(s.headers ? { headers: s.headers } : {}),
      ...(s.requestExtra ? { extra: s.requestExtra } : {}),
    });
  } catch (error) {
    const text = `Compaction failed, continuing without it: ${errorMessage(error)}`;
    s.writer?.informational(text, 'warning');
    yield s.events.informational(text, 'warning');
    return false;
  }
  if (!result) return false;
  s.usage.add(result.responseModel, result.usage);
  s.messages = result.messages;
  s.sharedPrefixEnd = undefined;
  const post = s.estimator.estimate(s.messages);
  const w = s.writer;
  if (w) {
    w.compactBoundary({ trigger: opts.trigger, preTokens: pre, postTokens: post });
    s.messages.forEach((m, i) => {
      if (m.role === 'user') w.userContent(m.content, i === 0 ? { isCompactSummary: true } : {});
      else
        m.content.forEach((b, j) =>
          w.assistantBlock(b, {
            messageId: `msg_compacted_${i}`,
            model: s.model,
            usage: result.usage,
            stopReason: null,
            blockIndex: j,
          }),
        );
    });
    w.sync();
  }
  yield s.events.compactBoundary(opts.trigger, pre, post);
  const after = await s.hooks.run(
    'PostCompact',
    {
      ...hookBase(s, 'PostCompact'),
      hook_event_name: 'PostCompact',
      trigger: opts.trigger,
      compact_summary: result.summary,
    },
    { matchValue: opts.trigger, signal },
  );
  for (const m of after.systemMessages) yield s.events.informational(m);
  return true;
}
