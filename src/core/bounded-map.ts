/**
 * A least-recently-used map with bounds: at most `max` entries, optionally at most `maxSize` units
 * of size (each entry's size from `sizeOf`), optionally entries that expire `ttlMs` milliseconds
 * after they were set. The subset of the `lru-cache` package the permission session, the read-file
 * state and the shell analysis's recent-results cache use, on a plain `Map` (its insertion order is
 * the recency order), with the same answers: `lru-cache` allocates its arrays for `max` entries and
 * sets up its diagnostics channels when it is constructed or loaded, which a one-shot decision
 * (`gantry check`, a cold hook call) paid at every start (docs/startup.md, "What a cold decision
 * costs").
 *
 * - `get` makes the entry the most recent; `has` does not. An expired entry is gone for both.
 * - `set` of a new key past `max` (or past `maxSize`) drops the least recent entries first. An
 *   entry whose own size exceeds `maxSize` is not stored, and the key's previous entry is dropped.
 * - Iteration (`entries`, `keys`) runs from the least to the most recent entry, skipping expired ones.
 * @throws RangeError from the constructor when `max` is not a positive integer, `maxSize` is not
 *   positive, or `ttlMs` is not positive; TypeError from `set` when `sizeOf` gives no positive number.
 */
export interface BoundedMapOptions<K, V> {
  /** Most entries kept (a positive integer). */
  max: number;
  /** Most total size kept, in the units of `sizeOf` (requires `sizeOf`). */
  maxSize?: number;
  /** The size of one entry (a positive number); required with `maxSize`. */
  sizeOf?: (value: V, key: K) => number;
  /** Entries expire this many milliseconds after they were set. */
  ttlMs?: number;
  /** The clock for `ttlMs`, in milliseconds (default `performance.now`, monotonic). */
  now?: () => number;
}

interface Slot<V> {
  value: V;
  size: number;
  /** When the entry expires (clock ms), or Infinity. */
  expires: number;
}

export class BoundedMap<K, V> {
  readonly max: number;
  readonly maxSize: number;
  private readonly slots = new Map<K, Slot<V>>();
  private readonly sizeOf: ((value: V, key: K) => number) | undefined;
  private readonly ttlMs: number | undefined;
  private readonly now: () => number;
  private total = 0;
  /** The iterator evictions take the oldest key from (see `oldestKey`). */
  private evictor: Iterator<K> | undefined;

  constructor(o: BoundedMapOptions<K, V>) {
    if (!Number.isInteger(o.max) || o.max <= 0) throw new RangeError('max must be a positive integer');
    if (o.maxSize !== undefined && !(o.maxSize > 0)) throw new RangeError('maxSize must be positive');
    if (o.maxSize !== undefined && !o.sizeOf) throw new TypeError('maxSize needs sizeOf');
    if (o.ttlMs !== undefined && !(o.ttlMs > 0)) throw new RangeError('ttlMs must be positive');
    this.max = o.max;
    this.maxSize = o.maxSize ?? Number.POSITIVE_INFINITY;
    this.sizeOf = o.sizeOf;
    this.ttlMs = o.ttlMs;
    this.now = o.now ?? (() => performance.now());
  }

  /** The number of entries stored (expired ones count until they are next looked at). */
  get size(): number {
    return this.slots.size;
  }

  /** The value, made the most recent; undefined when absent or expired. */
  get(key: K): V | undefined {
    const slot = this.live(key);
    if (!slot) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Whether a live entry is there (its recency unchanged). */
  has(key: K): boolean {
    return this.live(key) !== undefined;
  }

  set(key: K, value: V): this {
    let size = 1;
    if (this.sizeOf) {
      size = this.sizeOf(value, key);
      if (typeof size !== 'number' || !(size > 0))
        throw new TypeError('sizeOf must return a positive number');
    }
    this.delete(key);
    if (size > this.maxSize) return this;
    const expires = this.ttlMs === undefined ? Number.POSITIVE_INFINITY : this.now() + this.ttlMs;
    this.slots.set(key, { value, size, expires });
    this.total += size;
    while (this.slots.size > this.max || this.total > this.maxSize) {
      const oldest = this.oldestKey();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    return this;
  }

  /**
   * The least recent key. A fresh `keys()` iterator starts at the front of the Map's table and
   * walks past every entry deleted since the table was last compacted, so evicting with one per
   * `set` cost time in proportion to the entries evicted before (14 µs a `set` at 10,000 entries).
   * One iterator is kept instead: every key before its position was evicted or moved to the end
   * (re-set), so its next key is the oldest. A finished iterator sees no later key; it is made again.
   */
  private oldestKey(): IteratorResult<K> {
    let next = this.evictor?.next();
    if (!next || next.done) {
      this.evictor = this.slots.keys();
      next = this.evictor.next();
    }
    return next;
  }

  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    this.slots.delete(key);
    this.total -= slot.size;
    return true;
  }

  clear(): void {
    this.slots.clear();
    this.evictor = undefined;
    this.total = 0;
  }

  /** Live entries, least recent first. */
  *entries(): IterableIterator<[K, V]> {
    const t = this.ttlMs === undefined ? 0 : this.now();
    for (const [k, slot] of [...this.slots]) if (slot.expires >= t) yield [k, slot.value];
  }

  /** Live keys, least recent first. */
  *keys(): IterableIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  private live(key: K): Slot<V> | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (slot.expires !== Number.POSITIVE_INFINITY && slot.expires < this.now()) {
      this.delete(key);
      return undefined;
    }
    return slot;
  }
}
