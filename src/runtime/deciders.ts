/**
 * Trivial permission deciders, until the real engine (`src/permissions`) plugs into the same seam.
 *
 * A `PermissionDecider` (core) is data in, decision out. The runtime takes
 * one through `createToolRuntime({ decide })`; the permission engine will export a function that
 * builds a decider from settings, and a host passes that instead. Both deciders here still honour
 * a tool's own `deny` (a tool's refusal is never overridden by a blanket policy).
 */
import type { PermissionDecider, PermissionDecision } from '../core/index.js';

/**
 * Allows every call, except one the tool itself denies. Use only for trusted hosts, demos and
 * benchmarks (the equivalent of bypassing permissions). The tool's `updatedInput`, if any, is kept.
 */
export const allowAllDecider: PermissionDecider = async (request): Promise<PermissionDecision> => {
  const own = request.toolResult;
  if (own.behavior === 'deny') {
    return { behavior: 'deny', reason: { type: 'tool', message: own.reason } };
  }
  const decision: PermissionDecision = {
    behavior: 'allow',
    reason: { type: 'default', message: 'Allowed: the allow-all decider allows every call.' },
  };
  if (own.behavior === 'allow' && own.updatedInput) decision.updatedInput = own.updatedInput;
  return decision;
};

/**
 * Asks about every call (the host's `canUseTool` answers), except one the tool itself denies.
 * The runtime's default decider: with no host to ask, every call is denied (fail closed).
 */
export const askAllDecider: PermissionDecider = async (request): Promise<PermissionDecision> => {
  const own = request.toolResult;
  if (own.behavior === 'deny') {
    return { behavior: 'deny', reason: { type: 'tool', message: own.reason } };
  }
  return {
    behavior: 'ask',
    reason: { type: 'default', message: `The ask-all decider asks before every call (${request.toolName}).` },
    suggestions: [],
  };
};
