/**
 * Loop breakers that hold in every permission mode, bypassPermissions included: they sit in the
 * loop, before a call reaches the runtime, so no rule or mode can lift them.
 *
 * - Repeated call: the same tool with the same input (canonical JSON, key order ignored) this many
 *   times in a row across the session (default 3) is refused with a result telling the model to
 *   change course. The count goes on while the model insists; any other call resets it.
 * - Tool-call budget: at most `maxToolCalls` calls per session (default 2,000); every call past it
 *   is refused, and the loop ends the turn.
 *
 * Refused calls never run; they still get exactly one `is_error` tool_result.
 */
import type { ToolUseBlock } from '../core/content.js';

export const DEFAULT_REPEATED_CALL_LIMIT = 3;
export const DEFAULT_MAX_TOOL_CALLS = 2_000;

/** JSON with object keys sorted at every level (so `{a,b}` and `{b,a}` are the same call). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type BreakerVerdict =
  | { refuse: false }
  | { refuse: true; kind: 'repeated-call' | 'tool-call-budget'; text: string };

export class LoopBreakers {
  private lastKey: string | undefined;
  private streak = 0;
  private calls = 0;

  constructor(
    private readonly repeatedCallLimit: number = DEFAULT_REPEATED_CALL_LIMIT,
    private readonly maxToolCalls: number = DEFAULT_MAX_TOOL_CALLS,
  ) {
    if (!Number.isInteger(repeatedCallLimit) || repeatedCallLimit < 2)
      throw new RangeError(`repeatedCallLimit must be an integer ≥ 2, got ${repeatedCallLimit}`);
    if (!Number.isInteger(maxToolCalls) || maxToolCalls < 1)
      throw new RangeError(`maxToolCalls must be a positive integer, got ${maxToolCalls}`);
  }

  /** Tool calls seen so far (refused ones included). */
  get callCount(): number {
    return this.calls;
  }

  /** True once the budget is used up. */
  get budgetExhausted(): boolean {
    return this.calls >= this.maxToolCalls;
  }

  /** Decides one call as the model makes it (call in stream order). */
  check(block: ToolUseBlock): BreakerVerdict {
    this.calls++;
    const key = `${block.name}\u0000${canonicalJson(block.input)}`;
    this.streak = key === this.lastKey ? this.streak + 1 : 1;
    this.lastKey = key;
    if (this.calls > this.maxToolCalls) {
      return {
        refuse: true,
        kind: 'tool-call-budget',
        text: `Not run: this session has used its budget of ${this.maxToolCalls} tool calls. Stop calling tools; tell the user what you did and what is left.`,
      };
    }
    if (this.streak >= this.repeatedCallLimit) {
      return {
        refuse: true,
        kind: 'repeated-call',
        text: `Not run: this is the same ${block.name} call with the same input ${this.streak} times in a row. Repeating it will not give a different result. Change course: read the last result again, try a different approach, or tell the user what is blocking you.`,
      };
    }
    return { refuse: false };
  }
}
