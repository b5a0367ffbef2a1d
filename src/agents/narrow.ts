/**
 * A sub-agent's permissions: they only ever narrow its parent's.
 *
 * - Mode: the child runs in `narrowPermissionMode(parent, requested)`: the requested mode when it
 *   is the parent's or strictly narrower, else the parent's (a `bypassPermissions` agent of a
 *   `default` parent runs in `default`; `narrowingNote` says so for the transcript).
 * - Decisions: each call is decided in the child's mode and, when that differs from the parent's,
 *   in the parent's mode too; the child gets the meet of the two (deny if either denies, ask if
 *   either asks, allow only if both allow). Rules, directories and hooks are the parent's (the same
 *   engine), so nothing the parent would not allow is allowed in the child.
 * - Asks go to whoever answers the parent (its `canUseTool`: the interactive prompt, the SDK host,
 *   a hook), labelled with the child's agent id and type. With nobody to ask the call is denied
 *   and listed in the child's `permission_denials`, which the parent reports with the agent id.
 */
import type { PermissionDecider, PermissionDecision, PermissionMode } from '../core/index.js';
import { narrowPermissionMode } from '../runtime/index.js';

export { narrowPermissionMode };

/** The note a child's transcript gets when its requested mode was narrowed. */
export function narrowingNote(
  parent: PermissionMode,
  requested: PermissionMode | undefined,
): string | undefined {
  if (requested === undefined) return undefined;
  const effective = narrowPermissionMode(parent, requested);
  if (effective === requested) return undefined;
  return `This agent asked for permission mode "${requested}", but its parent runs in "${parent}": a sub-agent's permissions only narrow its parent's, so it runs in "${effective}".`;
}

const RANK: Readonly<Record<PermissionDecision['behavior'], number>> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two decisions (deny > ask > allow); on a tie the first. */
export function meetDecisions(a: PermissionDecision, b: PermissionDecision): PermissionDecision {
  if (RANK[b.behavior] > RANK[a.behavior]) return b;
  if (a.behavior === 'allow' && b.behavior === 'allow') {
    // Both allow: an input rewrite only stands when both made the same one.
    const au = JSON.stringify(a.updatedInput ?? null);
    const bu = JSON.stringify(b.updatedInput ?? null);
    if (au !== bu) {
      return {
        behavior: 'ask',
        reason: {
          type: 'check',
          checkId: 'subagent-narrowing',
          message: 'the parent and the sub-agent policies rewrote the input differently',
        },
        suggestions: [],
      };
    }
  }
  return a;
}

/**
 * The child's decider (see the module comment). `parentMode` is read per call, so a parent that
 * narrows its own mode later narrows its running children too.
 */
export function narrowedDecider(
  decide: PermissionDecider,
  parentMode: () => PermissionMode,
): PermissionDecider {
  return async (request) => {
    const mode = parentMode();
    const effective = narrowPermissionMode(mode, request.mode);
    const asChild = await decide({ ...request, mode: effective });
    if (effective === mode || asChild.behavior === 'deny') return asChild;
    const asParent = await decide({ ...request, mode });
    return meetDecisions(asChild, asParent);
  };
}
