/**
 * The destructive floor's vocabulary (docs/security-round-2.md "Destructive floor"): levels, rows
 * and hits. The rows themselves are in rows-*.ts; index.ts evaluates them.
 */
import type { EffectKind } from '../effects.js';
import type { FloorCall } from './call.js';

/**
 * `off`: no floor. `standard` (default): deny rows deny, ask rows ask, in every mode.
 * `strict`: what standard asks is denied, and the strict rows (recursive removal inside the
 * project, history rewrites, any push, `DELETE` with a `WHERE`) ask.
 */
export type DestructiveFloorLevel = 'off' | 'standard' | 'strict';

export const DESTRUCTIVE_FLOOR_LEVELS: readonly DestructiveFloorLevel[] = ['off', 'standard', 'strict'];

/** `deny`: refused at standard; `ask`: asked at standard, refused at strict; `strict`: asked at strict only. */
export type FloorRowLevel = 'deny' | 'ask' | 'strict';

/** One place a row matched. */
export interface FloorMatch {
  /** Index of the sub-command (Bash), absent for a file tool's own effect. */
  subcommand?: number;
  /** What matched, for the explanation (`removes /home/u`, `git push --force`). */
  what: string;
}

/** One row of the table: an id, its level, why it exists, and how it matches a call. */
export interface FloorRow {
  id: string;
  level: FloorRowLevel;
  /** Why this is on the floor (shown in explanations and as the Bash tool's warning). */
  reason: string;
  /**
   * What a call must have for the row to be worth matching (a cheap test before `match`): one of
   * these effect kinds, or one of these program base names (or a name the pattern accepts).
   */
  needs?: { effects?: readonly EffectKind[]; programs?: readonly string[] | RegExp };
  match(call: FloorCall): FloorMatch[];
}

/** A row that fired, with the decision it forces at the level in force. */
export interface FloorHit {
  rowId: string;
  behavior: 'deny' | 'ask';
  reason: string;
  what: string;
  subcommand?: number;
}
