/**
 * Read-before-write and staleness rules over `context.readFileState` (the Claude Code tools reference).
 *
 * - A file must have been read in this session before it is overwritten or edited.
 * - Write (and NotebookEdit) need a FULL read; Edit accepts a partial one (`old_string` must still
 *   match the current content, so a partial view cannot make it write blind).
 * - Stale = the content changed since the read. The recorded sha256 decides; the mtime alone is not
 *   trusted (1 ms granularity misses fast rewrites; `touch` moves it without a change). When the read
 *   did not hash the file (a partial read of a file over {@link PARTIAL_READ_HASH_MAX_BYTES}), the
 *   floored mtime decides.
 * - After a tool writes a file it records the new state, so consecutive edits do not trip the check.
 */
import type { ReadFileEntry, ToolUseContext } from '../../core/index.js';
import type { TextFileSnapshot } from './text-file.js';

/** Partial reads hash the whole file only up to this size (32 MiB); larger ones record mtime only. */
export const PARTIAL_READ_HASH_MAX_BYTES = 32 * 1024 * 1024;

/** Recorded content is kept in the read state only up to this many chars (the LRU bounds the total). */
const MAX_RECORDED_CONTENT_CHARS = 5_000_000;

export const NOT_READ_MESSAGE = 'File has not been read yet. Read it first before writing to it.';
export const STALE_MESSAGE =
  'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.';

export type FreshnessProblem = 'not-read' | 'partial' | 'stale';

export type FreshnessCheck = { ok: true } | { ok: false; problem: FreshnessProblem; message: string };

/** True when `snapshot` differs from what `entry` recorded (see module doc). */
export function isStale(
  entry: ReadFileEntry,
  snapshot: Pick<TextFileSnapshot, 'contentHash' | 'mtimeMs'>,
): boolean {
  if (entry.contentHash) return entry.contentHash !== snapshot.contentHash;
  return entry.mtimeMs !== snapshot.mtimeMs;
}

/**
 * Checks that the existing file `snapshot` may be overwritten.
 * @param requireFullRead - true for Write and NotebookEdit.
 * @returns `ok`, or the problem with a message that names the next step. Never throws.
 */
export function checkReadBeforeWrite(
  context: Pick<ToolUseContext, 'readFileState'>,
  snapshot: Pick<TextFileSnapshot, 'path' | 'contentHash' | 'mtimeMs'>,
  options: { requireFullRead: boolean },
): FreshnessCheck {
  const entry = context.readFileState.get(snapshot.path);
  if (!entry) return { ok: false, problem: 'not-read', message: NOT_READ_MESSAGE };
  if (isStale(entry, snapshot)) return { ok: false, problem: 'stale', message: STALE_MESSAGE };
  if (options.requireFullRead && entry.isPartial) {
    const range =
      entry.offset !== undefined && entry.limit !== undefined
        ? ` (lines ${entry.offset}-${entry.offset + entry.limit - 1})`
        : '';
    return {
      ok: false,
      problem: 'partial',
      message:
        `File was only partly read${range}. Read the whole file first (Read without offset/limit, or with a ` +
        'limit that covers every line) before overwriting it, or change it with Edit.',
    };
  }
  return { ok: true };
}

/** Records what a tool just read or wrote. `text` is stored only for full reads of moderate size. */
export function recordFileState(
  context: Pick<ToolUseContext, 'readFileState'>,
  filePath: string,
  state: {
    contentHash: string;
    mtimeMs: number;
    isPartial: boolean;
    text?: string;
    offset?: number;
    limit?: number;
  },
): void {
  const entry: ReadFileEntry = {
    contentHash: state.contentHash,
    mtimeMs: Math.floor(state.mtimeMs),
    isPartial: state.isPartial,
  };
  if (!state.isPartial && state.text !== undefined && state.text.length <= MAX_RECORDED_CONTENT_CHARS) {
    entry.content = state.text;
  }
  if (state.offset !== undefined) entry.offset = state.offset;
  if (state.limit !== undefined) entry.limit = state.limit;
  context.readFileState.set(filePath, entry);
}
