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
import { type FloorCall, type FloorContext, type FloorInput, prepareCall } from './call.js';
import { FILESYSTEM_ROWS, INTERPRETERS } from './rows-filesystem.js';
import { WORK_ROWS } from './rows-work.js';
import type { DestructiveFloorLevel, FloorHit, FloorRow } from './types.js';

export { deleteScope, type FloorContext, type FloorInput } from './call.js';
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

/** Effect kinds and program names some row needs, and the rows that need neither (always matched). */
const NEEDED_KINDS = new Set<string>();
const NEEDED_NAMES = new Set<string>();
const NEEDED_PATTERNS: RegExp[] = [];
let ALWAYS = false;
for (const row of [...FILESYSTEM_ROWS, ...WORK_ROWS]) {
  if (!row.needs) ALWAYS = true;
  for (const k of row.needs?.effects ?? []) NEEDED_KINDS.add(k);
  const p = row.needs?.programs;
  if (p instanceof RegExp) NEEDED_PATTERNS.push(p);
  else for (const n of p ?? []) NEEDED_NAMES.add(n);
}

/** False when no row can match: no effect kind and no program any row needs (no allocation). */
function mayMatch(input: FloorInput): boolean {
  for (const e of input.effects) if (NEEDED_KINDS.has(e.kind)) return true;
  for (const s of input.subcommands ?? []) {
    const name = s.program.slice(s.program.lastIndexOf('/') + 1);
    if (NEEDED_NAMES.has(name) || NEEDED_PATTERNS.some((p) => p.test(name))) return true;
    // Rows without `needs` (the fork-bomb row) still need a function body or an interpreter one-liner.
    if (ALWAYS && (s.inFunction !== undefined || INTERPRETERS.test(name))) return true;
  }
  return false;
}

function needsMet(row: FloorRow, call: FloorCall): boolean {
  const n = row.needs;
  if (!n) return true;
  if (n.effects?.some((k) => call.kinds.includes(k))) return true;
  const p = n.programs;
  if (p instanceof RegExp) {
    for (const name of call.names) if (p.test(name)) return true;
  } else if (p?.some((name) => call.names.includes(name))) return true;
  return false;
}

/**
 * The rows that fire for a call at `level`, deny hits first (empty at `off`).
 * At `standard` deny rows deny and ask rows ask; at `strict` ask rows deny and strict rows ask.
 */
export function evaluateDestructiveFloor(
  input: FloorInput,
  ctx: FloorContext,
  level: DestructiveFloorLevel,
): FloorHit[] {
  if (level === 'off' || !mayMatch(input)) return [];
  const call = prepareCall(input, ctx);
  const hits: FloorHit[] = [];
  for (const row of DESTRUCTIVE_FLOOR_ROWS) {
    if (row.level === 'strict' && level !== 'strict') continue;
    if (row.needs && !needsMet(row, call)) continue;
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
