/**
 * Tools' contributions outside their calls (core/reminders.ts), as the loop applies them:
 *
 * - session context: each tool's `sessionContext()` text is asked once when the session is built
 *   and goes, as a `<system-reminder>` block, into the first prompt's message beside the session
 *   context (so the bytes stay the same for the whole session);
 * - before each model request: each tool's `beforeRequest(view)` text is attached to the end of the
 *   last user message as a `<system-reminder>` block, and recorded in the transcript like any
 *   other meta content, so a resumed session sees the reminders it was given.
 * - after each call that succeeded: each tool's `afterCall(view)` text (the LSP tool's diagnostics
 *   after an Edit) is added right after that turn's tool results as a `<system-reminder>` block.
 * A provider that throws adds nothing.
 */
import type { AnyTool, Message } from '../core/index.js';
import { systemReminderText } from '../core/reminders.js';
import { appendUserPart } from './messages.js';
import type { LoopSession } from './session.js';
import type { PostCallEvent } from './tool-runner.js';

/** The session-context texts of `tools`, already wrapped as reminders. */
export async function toolSessionContexts(tools: readonly AnyTool[]): Promise<string[]> {
  const texts = await Promise.all(
    tools.map(async (tool) => {
      try {
        return await tool.reminders?.sessionContext?.();
      } catch {
        return undefined;
      }
    }),
  );
  return texts.filter((t): t is string => typeof t === 'string' && t.trim() !== '').map(systemReminderText);
}

/** Attaches the due `beforeRequest` reminders to the conversation (see the module comment). */
export function attachToolReminders(s: LoopSession): void {
  const last = s.messages[s.messages.length - 1];
  if (last?.role !== 'user') return;
  const view = {
    messages: s.messages,
    appState: s.runner.appState,
    ...(s.options.agentId ? { agentId: s.options.agentId } : {}),
  };
  for (const tool of s.tools) {
    let text: string | undefined;
    try {
      text = tool.reminders?.beforeRequest?.(view);
    } catch {
      text = undefined;
    }
    if (!text) continue;
    const part = [{ type: 'text' as const, text: systemReminderText(text) }];
    appendUserPart(s.messages, part);
    s.writer?.userContent(part, { isMeta: true });
  }
}

/**
 * The `afterCall` reminders for one call that succeeded, as one user message (undefined when no
 * tool has anything to say). Providers run one after another, each with the call's signal.
 */
export async function toolAfterCallMessage(
  s: LoopSession,
  event: PostCallEvent,
): Promise<Message | undefined> {
  if (event.call.status !== 'ok') return undefined;
  const texts: string[] = [];
  for (const tool of s.tools) {
    const provider = tool.reminders?.afterCall;
    if (!provider) continue;
    try {
      const text = await provider.call(tool.reminders, {
        toolName: event.call.toolName,
        input: event.call.input ?? {},
        data: event.call.data,
        cwd: s.runner.cwd,
        services: s.runner.services,
        signal: event.signal,
      });
      if (typeof text === 'string' && text.trim() !== '') texts.push(systemReminderText(text));
    } catch {
      // A provider that fails adds nothing.
    }
  }
  if (!texts.length) return undefined;
  return { role: 'user', content: texts.map((text) => ({ type: 'text' as const, text })) };
}
