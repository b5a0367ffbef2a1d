/**
 * Writes a session transcript in Claude Code's JSONL layout (docs/loop.md, "Transcripts"): one JSON
 * object per line, appended, never rewritten.
 *
 * Line kinds written:
 * - `user`: a prompt, a text the loop added (`isMeta` for context the person did not type), or one
 *   `tool_result` with `toolUseResult` (the tool's structured output, or the error text) and
 *   `sourceToolAssistantUUID`;
 * - `assistant`: one line per content block; the blocks of one response share `message.id`;
 * - `attachment`: `prompt_snapshot` (the system blocks, so a resumed session sends the same bytes);
 * - `system`: `compact_boundary` (`compactMetadata{trigger, preTokens, postTokens}`; its
 *   `parentUuid` is null and `logicalParentUuid` points back), `informational`;
 * - `cost-state` and `last-prompt` bookkeeping lines.
 *
 * Parent chain: each line's `parentUuid` is the line before it, except that a tool_result line is
 * parented to the assistant line holding its tool_use (parallel calls fan out), and the line after
 * a run of tool results is parented to the last of them — as Claude Code links them.
 *
 * Crash safety: each line is one synchronous `write` of `JSON + "\n"` on a file opened for
 * appending, so the line is in the OS's hands before the loop goes on (a crash of the process loses
 * nothing; a torn last line can only come from the machine going down, and the reader skips it).
 * `fsync` policy (durability against the machine going down): `turn` (default) asks for an fsync
 * at the `sync()` points the loop calls after each tool-result message and each result, without
 * blocking the loop (one in flight at a time; `close()` waits with a final synchronous fsync);
 * `line` fsyncs every line synchronously; `never` leaves it to the OS. A file whose last byte is not a newline (torn by an
 * earlier crash) gets one before the first new line. Write failures never throw into the session:
 * the first one is kept in `error` and later lines are dropped.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, fstatSync, fsync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { AssistantContentBlock, Usage, UserContentBlock } from '../../core/messages.js';
import type { CostState } from '../../model/cost.js';
import type { PermissionMode, ToolResultMeta } from '../types.js';
import { GANTRY_VERSION } from '../version.js';
import type { ToolResultBlock } from '../../core/content.js';

export type FsyncPolicy = 'line' | 'turn' | 'never';

export interface TranscriptWriterOptions {
  file: string;
  sessionId: string;
  cwd: string;
  gitBranch?: string;
  /** Set for a sub-agent's file: every line gets `isSidechain: true` and `agentId`. */
  agentId?: string;
  fsync?: FsyncPolicy;
  /** Parent of the first line written (a resumed session continues its chain). */
  lastUuid?: string | null;
  now?: () => Date;
}

export interface AssistantLineMeta {
  messageId: string;
  model: string;
  usage: Usage;
  stopReason: string | null;
  /** Position of the block in the response. */
  blockIndex: number;
  requestId?: string;
}

/** Appends transcript lines for one session file. */
export class TranscriptWriter {
  readonly file: string;
  private fd: number | undefined;
  private last: string | null;
  /** tool_use id → uuid of the assistant line that holds it. */
  private readonly toolUseLines = new Map<string, string>();
  /** uuid of the previous block line of the response being written. */
  private responseLine: { messageId: string; uuid: string } | undefined;
  private failure: Error | undefined;
  private readonly fsyncPolicy: FsyncPolicy;
  private dirty = false;
  private syncing = false;
  private syncAgain = false;

  constructor(private readonly options: TranscriptWriterOptions) {
    this.file = options.file;
    this.last = options.lastUuid ?? null;
    this.fsyncPolicy = options.fsync ?? 'turn';
  }

  /** The first write error, if any (later lines were dropped). */
  get error(): Error | undefined {
    return this.failure;
  }

  /** uuid of the last line written (the next line's parent). */
  get lastUuid(): string | null {
    return this.last;
  }

  private open(): number | undefined {
    if (this.fd !== undefined || this.failure) return this.fd;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const fd = openSync(this.file, 'a+', 0o600);
      const size = fstatSync(fd).size;
      if (size > 0) {
        const tail = Buffer.alloc(1);
        readSync(fd, tail, 0, 1, size - 1);
        if (tail[0] !== 0x0a) writeSync(fd, '\n');
      }
      this.fd = fd;
    } catch (error) {
      this.failure = error as Error;
    }
    return this.fd;
  }

  private envelope(type: string, parentUuid: string | null): Record<string, unknown> {
    const o = this.options;
    return {
      parentUuid,
      isSidechain: o.agentId !== undefined,
      type,
      uuid: randomUUID(),
      timestamp: (o.now?.() ?? new Date()).toISOString(),
      userType: 'external',
      entrypoint: 'gantry',
      cwd: o.cwd,
      sessionId: o.sessionId,
      version: GANTRY_VERSION,
      ...(o.gitBranch ? { gitBranch: o.gitBranch } : {}),
      ...(o.agentId ? { agentId: o.agentId } : {}),
    };
  }

  /** Appends one line object; returns its uuid (also when the write failed, so chains stay consistent). */
  private write(line: Record<string, unknown>, advance = true): string {
    const uuid = typeof line.uuid === 'string' ? line.uuid : '';
    if (advance && uuid) this.last = uuid;
    const fd = this.open();
    if (fd === undefined) return uuid;
    try {
      writeSync(fd, `${JSON.stringify(line)}\n`);
      this.dirty = true;
      if (this.fsyncPolicy === 'line') this.flush();
    } catch (error) {
      this.failure ??= error as Error;
    }
    return uuid;
  }

  private flush(): void {
    if (this.fd === undefined || !this.dirty) return;
    try {
      fsyncSync(this.fd);
      this.dirty = false;
    } catch (error) {
      this.failure ??= error as Error;
    }
  }

  /** An fsync that does not block the loop; a second request while one runs is coalesced. */
  private flushSoon(): void {
    if (this.fd === undefined || !this.dirty) return;
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = true;
    this.dirty = false;
    fsync(this.fd, (error) => {
      this.syncing = false;
      if (error && this.fd !== undefined) this.failure ??= error;
      if (this.syncAgain) {
        this.syncAgain = false;
        this.dirty = true;
        this.flushSoon();
      }
    });
  }

  /** A `sync()` point: an fsync under the `turn` policy (not blocking) and the `line` policy. */
  sync(): void {
    if (this.fsyncPolicy === 'turn') this.flushSoon();
    else if (this.fsyncPolicy === 'line') this.flush();
  }

  /** A user line holding a prompt or a text the loop added. */
  userContent(
    content: string | UserContentBlock[],
    extra: {
      promptId?: string;
      permissionMode?: PermissionMode;
      isMeta?: boolean;
      isSynthetic?: boolean;
      isCompactSummary?: boolean;
      parentUuid?: string | null;
    } = {},
  ): string {
    this.responseLine = undefined;
    const { parentUuid, ...fields } = extra;
    return this.write({
      ...this.envelope('user', parentUuid === undefined ? this.last : parentUuid),
      message: { role: 'user', content },
      ...fields,
    });
  }

  /** One assistant content block (call in block order; a new `messageId` starts a new response). */
  assistantBlock(block: AssistantContentBlock, meta: AssistantLineMeta): string {
    const parent =
      this.responseLine && this.responseLine.messageId === meta.messageId
        ? this.responseLine.uuid
        : this.last;
    const uuid = this.write({
      ...this.envelope('assistant', parent),
      message: {
        id: meta.messageId,
        type: 'message',
        role: 'assistant',
        model: meta.model,
        content: [block],
        stop_reason: meta.stopReason,
        stop_sequence: null,
        usage: meta.usage,
      },
      apiBlockIndex: meta.blockIndex,
      ...(meta.requestId ? { requestId: meta.requestId } : {}),
    });
    this.responseLine = { messageId: meta.messageId, uuid };
    if (block.type === 'tool_use') this.toolUseLines.set(block.id, uuid);
    return uuid;
  }

  /** One tool_result, parented to the assistant line of its tool_use. */
  toolResult(block: ToolResultBlock, toolUseResult: unknown, meta: ToolResultMeta): string {
    this.responseLine = undefined;
    const source = this.toolUseLines.get(block.tool_use_id);
    this.toolUseLines.delete(block.tool_use_id);
    const decision = meta.permission_decision;
    return this.write({
      ...this.envelope('user', source ?? this.last),
      message: { role: 'user', content: [block] },
      toolUseResult,
      ...(source ? { sourceToolAssistantUUID: source } : {}),
      ...(decision
        ? {
            permissionDecision: {
              decision: decision.decision,
              source: decision.source,
              ...(decision.reason_type ? { reasonType: decision.reason_type } : {}),
            },
          }
        : {}),
    });
  }

  /** The system blocks of the session (written once at start, again only if they change). */
  promptSnapshot(
    system: readonly { text: string; cached: boolean }[],
    extra: Record<string, unknown> = {},
  ): string {
    return this.write({
      ...this.envelope('attachment', this.last),
      attachment: {
        type: 'prompt_snapshot',
        systemPrompt: system.map((b) => b.text),
        cached: system.map((b) => b.cached),
        ...extra,
      },
    });
  }

  /** A compaction boundary: the chain restarts (parent null) with a logical link to the old tail. */
  compactBoundary(meta: { trigger: 'manual' | 'auto'; preTokens: number; postTokens: number }): string {
    this.responseLine = undefined;
    const logicalParentUuid = this.last;
    return this.write({
      ...this.envelope('system', null),
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      logicalParentUuid,
      compactMetadata: meta,
      level: 'info',
    });
  }

  /** A notice (hook systemMessage, breaker) kept in the file; not part of the conversation. */
  informational(content: string, level: 'info' | 'warning'): string {
    return this.write(
      { ...this.envelope('system', this.last), subtype: 'informational', content, level },
      false,
    );
  }

  costState(state: CostState & { totalAPIDurationMs: number; numTurns: number }): void {
    this.write(
      {
        type: 'cost-state',
        sessionId: this.options.sessionId,
        totalCostUSD: state.totalCostUSD,
        totalAPIDuration: state.totalAPIDurationMs,
        modelUsage: state.modelUsage,
        hasUnknownModelCost: state.hasUnknownModelCost,
        webFetchRequests: state.webFetchRequests,
        numTurns: state.numTurns,
      },
      false,
    );
  }

  lastPrompt(text: string): void {
    this.write(
      { type: 'last-prompt', lastPrompt: text, leafUuid: this.last, sessionId: this.options.sessionId },
      false,
    );
  }

  close(): void {
    if (this.fd === undefined) return;
    if (this.fsyncPolicy !== 'never') {
      this.dirty ||= this.syncing || this.syncAgain;
      this.flush();
    }
    try {
      closeSync(this.fd);
    } catch {
      // Already closed or the disk went away; nothing more to save.
    }
    this.fd = undefined;
  }
}
