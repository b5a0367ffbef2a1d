/**
 * The read-file state (the Claude Code tools reference): which files the model has read in this session, with the content
 * and mtime seen, so Write/Edit can refuse to overwrite a file that was never read or has changed since.
 */
import { createHash } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';

/** What was recorded when a file was read (or last written by a tool). */
export interface ReadFileEntry {
  /** Text content as read (decoded, line endings as on disk); for partial reads, the whole file's content may be absent. */
  content?: string;
  /** sha256 hex of the file's bytes at read time. */
  contentHash: string;
  /** mtime of the file at read time, in ms since the epoch. */
  mtimeMs: number;
  /** True when only part of the file was read (offset/limit, or a page range). */
  isPartial: boolean;
  /** 1-based first line read, when partial. */
  offset?: number;
  limit?: number;
}

/** sha256 hex of bytes or a string (UTF-8). */
export function hashContent(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * LRU map from absolute, symlink-resolved path → ReadFileEntry.
 * Default bounds: 500 entries, 50 MiB of recorded content (content counted by UTF-16 length).
 */
export class ReadFileState {
  private readonly cache: BoundedMap<string, ReadFileEntry>;

  constructor(opts: { maxEntries?: number; maxContentChars?: number } = {}) {
    this.cache = new BoundedMap<string, ReadFileEntry>({
      max: opts.maxEntries ?? 500,
      maxSize: opts.maxContentChars ?? 50 * 1024 * 1024,
      sizeOf: (v) => Math.max(1, v.content?.length ?? 1),
    });
  }

  get(path: string): ReadFileEntry | undefined {
    return this.cache.get(path);
  }

  set(path: string, entry: ReadFileEntry): void {
    this.cache.set(path, entry);
  }

  delete(path: string): void {
    this.cache.delete(path);
  }

  has(path: string): boolean {
    return this.cache.has(path);
  }

  /** Copy for a sub-agent (the Claude Code subagents docs: sub-agents start from a clone of the parent's read state), least recent entry first, so the copy keeps the recency order. */
  clone(): ReadFileState {
    const c = new ReadFileState();
    for (const [k, v] of this.cache.entries()) c.set(k, { ...v });
    return c;
  }

  /** Forgets every entry (the session moved to another checkout: its files must be read again). */
  clear(): void {
    this.cache.clear();
  }

  get size(): number {
    return this.cache.size;
  }
}
