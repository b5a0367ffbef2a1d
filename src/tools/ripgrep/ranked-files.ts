/**
 * Keeps the first `capacity` files of a stream in modification-time order without holding the whole
 * stream (Glob keeps 100 of possibly millions; Grep keeps `offset + head_limit`). Ties on mtime are
 * broken by path, so the order is deterministic and paging is stable.
 */
import { statSync } from 'node:fs';

/** Which end of the mtime order comes first. */
export type MtimeOrder = 'oldest-first' | 'newest-first';

export interface RankedFile {
  /** Absolute path. */
  path: string;
  /** Modification time in ms since the epoch (0 when the file vanished before it was stat'ed). */
  mtimeMs: number;
}

const STAT_OPTIONS = { throwIfNoEntry: false } as const;

/** The mtime of `abs` in ms, or 0 when it cannot be stat'ed (synchronous: ~µs, no thread-pool round trip). */
export function mtimeOf(abs: string): number {
  return statSync(abs, STAT_OPTIONS)?.mtimeMs ?? 0;
}

/**
 * A bounded, sorted collection of files. `capacity` may be Infinity. Files are buffered and the
 * buffer is sorted and cut back to `capacity` whenever it reaches twice that (O(n log k) overall);
 * after the first cut, a file ranking below the last kept one is dropped at once.
 */
export class RankedFiles {
  private items: RankedFile[] = [];
  /** The last kept file after the latest cut: nothing ranking after it can make the first `capacity`. */
  private worstKept: RankedFile | undefined;
  /** Files offered, kept or not. */
  total = 0;

  constructor(
    private readonly capacity: number,
    private readonly order: MtimeOrder,
  ) {}

  private readonly compare = (a: RankedFile, b: RankedFile): number => {
    const byTime = this.order === 'oldest-first' ? a.mtimeMs - b.mtimeMs : b.mtimeMs - a.mtimeMs;
    if (byTime !== 0) return byTime;
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  };

  private compact(): void {
    this.items.sort(this.compare);
    if (this.items.length >= this.capacity) {
      this.items.length = this.capacity;
      this.worstKept = this.items[this.capacity - 1];
    }
  }

  /** Offers a file; it is kept when it ranks among the first `capacity`. */
  add(file: RankedFile): void {
    this.offer(file.path, file.mtimeMs);
  }

  /**
   * Offers a file by its parts, as {@link add} does; an object is made only for a file that is kept
   * (a listing of 10,000 files keeps a few hundred). Paths compare as strings: any common prefix
   * (a root left off until the end) orders them alike.
   */
  offer(path: string, mtimeMs: number): void {
    this.total++;
    if (this.capacity <= 0) return;
    const worst = this.worstKept;
    if (worst) {
      const byTime = this.order === 'oldest-first' ? mtimeMs - worst.mtimeMs : worst.mtimeMs - mtimeMs;
      if (byTime > 0 || (byTime === 0 && path >= worst.path)) return;
    }
    this.items.push({ path, mtimeMs });
    if (this.items.length >= 2 * this.capacity) this.compact();
  }

  /** The kept files, in order. */
  sorted(): RankedFile[] {
    this.compact();
    return [...this.items];
  }
}
