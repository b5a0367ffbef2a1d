/**
 * Which depth-0 sub-command holds an offset of the command line, for many offsets at once.
 *
 * A check that asks this once per note (secrets.ts: is this `$TOKEN` inside `[ -n … ]`?) by
 * scanning every sub-command was quadratic: `[ -n "$TOKEN" ] && ` repeated to 64 KiB made 3,000
 * notes × 3,000 sub-commands. Here all offsets are answered in one sweep, O((c + q) log c) for
 * c sub-commands and q offsets (docs/analysis-budget.md, "Gantry's own passes").
 */
import type { SplitResult } from '../types.js';

/**
 * For each offset, the index of the LAST sub-command of `split.commands` at script depth 0 whose
 * span `[start, end)` holds it, or -1 when none does (the answer of a scan of every sub-command in
 * order that keeps the last match). Pure; linearithmic.
 * @param offsets - offsets into the command line as split (`split.source`), in any order.
 * @returns a map from each distinct offset to its index.
 */
export function depthZeroOwners(split: SplitResult, offsets: readonly number[]): Map<number, number> {
  const answers = new Map<number, number>();
  if (offsets.length === 0) return answers;
  const queries = [...new Set(offsets)].sort((a, b) => a - b);
  const order: number[] = [];
  const cmds = split.commands;
  for (let i = 0; i < cmds.length; i++) if (((cmds[i]?.depth ?? 0) as number) === 0) order.push(i);
  order.sort((a, b) => (cmds[a]?.start as number) - (cmds[b]?.start as number) || a - b);
  // Max-heap of command indices whose start is at or before the current offset. An entry whose end
  // is at or before the current offset can hold no later (larger) offset either, so it is dropped
  // for good when it reaches the top; the top is then the largest index that holds the offset.
  const heap: number[] = [];
  const push = (v: number): void => {
    let k = heap.push(v) - 1;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if ((heap[p] as number) >= v) break;
      heap[k] = heap[p] as number;
      k = p;
    }
    heap[k] = v;
  };
  const pop = (): void => {
    const last = heap.pop() as number;
    if (heap.length === 0) return;
    let k = 0;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= heap.length) break;
      const r = l + 1;
      const c = r < heap.length && (heap[r] as number) > (heap[l] as number) ? r : l;
      if ((heap[c] as number) <= last) break;
      heap[k] = heap[c] as number;
      k = c;
    }
    heap[k] = last;
  };
  let next = 0;
  for (const q of queries) {
    while (next < order.length && (cmds[order[next] as number]?.start as number) <= q)
      push(order[next++] as number);
    while (heap.length > 0 && (cmds[heap[0] as number]?.end as number) <= q) pop();
    answers.set(q, heap.length > 0 ? (heap[0] as number) : -1);
  }
  return answers;
}
