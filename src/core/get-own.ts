/**
 * Own-property lookups for tables indexed by names that come from outside: a model's tool call, a
 * hook payload, a settings file, a shell command line. A plain object literal inherits
 * `constructor`, `toString`, `valueOf`, `hasOwnProperty`, `__proto__` … from `Object.prototype`, so
 * `TABLE[name]` returns a function (or the prototype itself) for those names instead of
 * `undefined`, and code written for "known entry or undefined" misbehaves. `getOwn` answers only
 * from the table's own entries. Prefer a `Map` for new tables; use `getOwn` where a literal reads
 * better.
 */

/** `table[key]` when `key` is an own property of `table`, else `undefined`. Never throws. */
export function getOwn<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** True when `key` is an own property of `table` (not inherited). */
export function hasOwn(table: object, key: string): boolean {
  return Object.hasOwn(table, key);
}
