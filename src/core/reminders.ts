/**
 * What a tool adds to the conversation outside its own calls (docs/loop.md "Reminders"):
 *
 * - `sessionContext`: text for the session context block of the first prompt (the skill listing),
 *   asked once when a session starts, so the bytes stay the same for the whole session;
 * - `beforeRequest`: text the loop attaches to the conversation just before a model request, as a
 *   `<system-reminder>` block at the end of the last user message (TodoWrite's reminder when the
 *   list has gone stale). It is a pure function of the conversation and the app state, so a resumed
 *   session gets the same reminders, and it keeps its own rhythm by looking at the conversation
 *   (for example for its own earlier reminder);
 * - `afterCall`: text about a call of the session that just succeeded (any tool's, not only its
 *   own), added to the conversation right after that turn's tool results as a `<system-reminder>`
 *   block (the LSP tool reports a file's new diagnostics after an Edit or Write). It may wait (a
 *   language server answering) but must honour the signal; it runs while the call still holds its
 *   place in the turn.
 *
 * The loop asks every tool of the session's pool; a tool without `reminders` adds nothing.
 */
import type { AppState } from './context.js';
import type { Message } from './messages.js';
import type { SessionServices } from './services.js';

/** What a `beforeRequest` provider sees. */
export interface ReminderView {
  /** The conversation as it will be sent (this turn's tool results included). */
  messages: readonly Message[];
  /** The app state of the agent whose loop asks. */
  appState: AppState;
  /** That agent's id; absent for the main session. */
  agentId?: string;
}

/** What an `afterCall` provider sees: one call of the session that ended well. */
export interface AfterCallView {
  /** The canonical name of the tool that ran (`Edit`). */
  toolName: string;
  /** The input it ran with. */
  input: Readonly<Record<string, unknown>>;
  /** Its structured output (`ToolResult.data`). */
  data: unknown;
  /** The session's working directory after the call (absolute). */
  cwd: string;
  /** The session services the tools of this session see. */
  services: SessionServices;
  signal: AbortSignal;
}

/** A tool's contributions outside its calls. */
export interface ToolReminders {
  /** Text for the session context block, once per session; undefined adds nothing. Should not throw. */
  sessionContext?(): string | undefined | Promise<string | undefined>;
  /** Text to remind the model of before a request; undefined adds nothing. Pure, cheap, never throws. */
  beforeRequest?(view: ReminderView): string | undefined;
  /** Text about a call that just succeeded; undefined adds nothing. Honours `view.signal`; a throw adds nothing. */
  afterCall?(view: AfterCallView): Promise<string | undefined>;
}

/** The text a reminder reaches the model as. */
export function systemReminderText(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}
