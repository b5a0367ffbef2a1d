/**
 * Reads a transcript written by `TranscriptWriter` (or by Claude Code: the layout is the same) and
 * restores the conversation, for `--resume` / `--continue` and for tests.
 *
 * - Lines that do not parse are skipped and counted; a torn last line (a crash mid-write) is the
 *   expected case. Unknown line types are skipped (Claude Code writes many bookkeeping kinds).
 * - The conversation starts after the last `compact_boundary` line. Main-thread `user` and
 *   `assistant` lines only (`isSidechain` lines belong to sub-agents); `attachment` lines and
 *   `isVisibleInTranscriptOnly` lines are not sent to the model.
 * - Assistant lines of one response (same `message.id`, consecutive) form one message; consecutive
 *   user lines form one message (messages.ts `appendUserPart`, the rule the loop itself follows).
 * - Repair: a `tool_use` with no `tool_result` after it (the session died while the call ran)
 *   gets an `is_error` result saying so, placed first in the next user message, so the restored
 *   conversation is valid for the API and every tool_use keeps exactly one result.
 */
import { readFileSync } from 'node:fs';
import type { AssistantContentBlock, Message, UserContentBlock } from '../../core/messages.js';
import type { CostState } from '../../model/cost.js';
import { appendUserPart, type UserPart } from '../messages.js';
import type { PermissionMode, ResumedSession } from '../types.js';

export interface TranscriptReadStats {
  lines: number;
  malformed: number;
  /** True when the last line did not parse (a torn write). */
  tornLastLine: boolean;
}

export interface TranscriptLines {
  lines: Record<string, unknown>[];
  stats: TranscriptReadStats;
}

/** The text given to a tool_use whose result never made it into the file. */
export const LOST_RESULT_TEXT =
  'This call did not finish: the session ended while it was running, so its outcome is unknown. Check its effects before running it again.';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses every line of a transcript file (see the module comment). Throws only when the file cannot be read. */
export function readTranscriptLines(file: string): TranscriptLines {
  const text = readFileSync(file, 'utf8');
  const raw = text.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  const lines: Record<string, unknown>[] = [];
  const stats: TranscriptReadStats = { lines: raw.length, malformed: 0, tornLastLine: false };
  raw.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isObj(parsed)) {
        lines.push(parsed);
        return;
      }
    } catch {
      // Counted below.
    }
    stats.malformed++;
    if (i === raw.length - 1) stats.tornLastLine = true;
  });
  return { lines, stats };
}

function isConversationLine(l: Record<string, unknown>): boolean {
  return (
    (l.type === 'user' || l.type === 'assistant') &&
    l.isSidechain !== true &&
    l.isVisibleInTranscriptOnly !== true &&
    isObj(l.message)
  );
}

/** Adds a result for every tool_use that has none (see the module comment). */
export function repairToolResults(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    out.push(m);
    if (m.role !== 'assistant') continue;
    const ids = m.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
    if (ids.length === 0) continue;
    const next = messages[i + 1];
    const answered = new Set<string>();
    if (next?.role === 'user' && Array.isArray(next.content)) {
      for (const b of next.content) if (b.type === 'tool_result') answered.add(b.tool_use_id);
    }
    const missing: UserContentBlock[] = ids
      .filter((id) => !answered.has(id))
      .map((id) => ({ type: 'tool_result', tool_use_id: id, content: LOST_RESULT_TEXT, is_error: true }));
    if (missing.length === 0) continue;
    if (next?.role === 'user') {
      const blocks: UserContentBlock[] =
        typeof next.content === 'string' ? [{ type: 'text', text: next.content }] : next.content;
      const results = blocks.filter((b) => b.type === 'tool_result');
      const rest = blocks.filter((b) => b.type !== 'tool_result');
      out.push({ role: 'user', content: [...results, ...missing, ...rest] });
      i++;
    } else {
      out.push({ role: 'user', content: missing });
    }
  }
  return out;
}

/** The conversation a transcript holds, as the next request would send it. */
export function messagesFromLines(lines: readonly Record<string, unknown>[]): Message[] {
  let start = 0;
  lines.forEach((l, i) => {
    if (l.type === 'system' && l.subtype === 'compact_boundary' && l.isSidechain !== true) start = i + 1;
  });
  const messages: Message[] = [];
  let currentId: string | undefined;
  for (const l of lines.slice(start)) {
    if (!isConversationLine(l)) continue;
    const message = l.message as Record<string, unknown>;
    if (l.type === 'assistant') {
      const id = typeof message.id === 'string' ? message.id : undefined;
      const blocks = (Array.isArray(message.content) ? message.content : []) as AssistantContentBlock[];
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant' && id !== undefined && id === currentId) last.content.push(...blocks);
      else messages.push({ role: 'assistant', content: [...blocks] });
      currentId = id;
    } else {
      currentId = undefined;
      const content = message.content;
      if (typeof content !== 'string' && !Array.isArray(content)) continue;
      appendUserPart(messages, content as UserPart);
    }
  }
  return repairToolResults(messages);
}

/** `loadSessionMessages(path)`: the restored conversation only. */
export function loadSessionMessages(file: string): Message[] {
  return messagesFromLines(readTranscriptLines(file).lines);
}

/**
 * Everything a session needs to continue from its transcript: messages, the system blocks it sent,
 * the chain's last uuid, cost totals. Throws when the file cannot be read or holds no session.
 */
export function resumeSession(file: string): ResumedSession & { stats: TranscriptReadStats } {
  const { lines, stats } = readTranscriptLines(file);
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let lastUuid: string | null = null;
  let systemBlocks: { text: string; cached: boolean }[] | undefined;
  let model: string | undefined;
  let permissionMode: PermissionMode | undefined;
  let costState: CostState | undefined;
  let numTurns: number | undefined;
  for (const l of lines) {
    if (typeof l.sessionId === 'string') sessionId ??= l.sessionId;
    if (typeof l.cwd === 'string') cwd ??= l.cwd;
    if (typeof l.uuid === 'string' && l.type !== 'system') lastUuid = l.uuid;
    if (l.type === 'system' && l.subtype === 'compact_boundary' && typeof l.uuid === 'string')
      lastUuid = l.uuid;
    if (l.type === 'user' && typeof l.permissionMode === 'string')
      permissionMode = l.permissionMode as PermissionMode;
    if (l.type === 'attachment' && isObj(l.attachment) && l.attachment.type === 'prompt_snapshot') {
      const a = l.attachment;
      const texts = Array.isArray(a.systemPrompt) ? a.systemPrompt : [];
      const cached = Array.isArray(a.cached) ? a.cached : [];
      systemBlocks = texts
        .filter((t): t is string => typeof t === 'string')
        .map((text, i) => ({ text, cached: cached[i] === true }));
      if (typeof a.model === 'string') model = a.model;
    }
    if (l.type === 'cost-state' && isObj(l.modelUsage)) {
      costState = {
        totalCostUSD: typeof l.totalCostUSD === 'number' ? l.totalCostUSD : 0,
        modelUsage: l.modelUsage as CostState['modelUsage'],
        hasUnknownModelCost: l.hasUnknownModelCost === true,
        webFetchRequests: typeof l.webFetchRequests === 'number' ? l.webFetchRequests : 0,
      };
      if (typeof l.numTurns === 'number') numTurns = l.numTurns;
    }
  }
  if (!sessionId) throw new Error(`${file} holds no session lines (no sessionId found)`);
  return {
    sessionId,
    transcriptPath: file,
    messages: messagesFromLines(lines),
    lastUuid,
    ...(systemBlocks ? { systemBlocks } : {}),
    ...(cwd ? { cwd } : {}),
    ...(model ? { model } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    ...(costState ? { costState } : {}),
    ...(numTurns !== undefined ? { numTurns } : {}),
    stats,
  };
}
