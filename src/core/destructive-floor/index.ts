/**
 * The destructive floor (docs/security-round-2.md "Destructive floor"): a table of operations that
 * destroy what cannot be recovered, judged on a call's parsed sub-commands and effects, that holds
 * in every permission mode — bypassPermissions and auto included. The permission engine enforces
 * it (deny rows deny, ask rows ask and are never auto-allowed); the Bash tool shows the same rows'
 * reasons as its destructive-command warning.
 *
 * Rows (each with its reason): rows-filesystem.ts (deny: removal or recursive permission changes of
 * `/`, home and their top-level children, filesystem creation and raw block-device writes, fork
 * bombs, a secret piped to the network) and rows-work.ts (ask: discarding uncommitted or shared git
 * work, recursive removal outside the working directories or of the project root, infrastructure
 * deletions; strict-only rows).
 */
import { type FloorContext, type FloorInput, prepareCall } from './call.js';
import { FILESYSTEM_ROWS } from './rows-filesystem.js';
import { WORK_ROWS } from './rows-work.js';
import type { DestructiveFloorLevel, FloorHit, FloorRow } from './types.js';

export type { FloorContext, FloorInput } from './call.js';
export { isBlockDevice, SECRET_FINDING_IDS } from './rows-filesystem.js';
export {
  DESTRUCTIVE_FLOOR_LEVELS,
  type DestructiveFloorLevel,
  type FloorHit,
  type FloorMatch,
  type FloorRow,
  type FloorRowLevel,
} from './types.js';

/** Every row, deny rows first. */
export const DESTRUCTIVE_FLOOR_ROWS: readonly FloorRow[] = [...FILESYSTEM_ROWS, ...WORK_ROWS];

const ORDER = { deny: 0, ask: 1 } as const;

/**
 * The rows that fire for a call at `level`, deny hits first (empty at `off`).
 * At `standard` deny rows deny and ask rows ask; at `strict` ask rows deny and strict rows ask.
 */
export function evaluateDestructiveFloor(
  input: FloorInput,
  ctx: FloorContext,
  level: DestructiveFloorLevel,
): FloorHit[] {
  if (level === 'off') return [];
  const call = prepareCall(input, ctx);
  const hits: FloorHit[] = [];
  for (const row of DESTRUCTIVE_FLOOR_ROWS) {
    if (row.level === 'strict' && level !== 'strict') continue;
    const behavior = row.level === 'deny' || (row.level === 'ask' && level === 'strict') ? 'deny' : 'ask';
    for (const m of row.match(call))
      hits.push({
        rowId: row.id,
        behavior,
        reason: row.reason,
        what: m.what,
        ...(m.subcommand !== undefined ? { subcommand: m.subcommand } : {}),
      });
  }
  return hits.sort((a, b) => ORDER[a.behavior] - ORDER[b.behavior]);
}

/** Strict rows too routine to warn about on every run. */
const NOT_WARNED = new Set(['git-push', 'git-history-rewrite']);

/**
 * The person-facing warnings of the Bash tool: one sentence per row that fires at the strict level
 * (so `rm -rf build` still warns; ordinary pushes and amends do not), deny rows first; empty when
 * nothing destructive is found.
 */
export function destructiveWarnings(input: FloorInput, ctx: FloorContext): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const h of evaluateDestructiveFloor(input, ctx, 'strict')) {
    if (seen.has(h.rowId) || NOT_WARNED.has(h.rowId)) continue;
    seen.add(h.rowId);
    out.push(`${h.what}: ${h.reason}.`);
  }
  return out;
}
