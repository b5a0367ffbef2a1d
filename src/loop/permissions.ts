/**
 * Permissions as the loop wires them: the decider the runtime calls (the engine, with the host's
 * PreToolUse callbacks merged into its hook step) and the bridge from the runtime's ask to the
 * host's `canUseTool` (the Agent SDK's shape: tool name, input, options with suggestions and labels).
 *
 * Host answers:
 * - allow → the call runs (with `updatedInput` when given, parsed and validated again by the
 *   runtime); `updatedPermissions` rules are added for the session (`addRules`, destination
 *   `session`) or also saved to their settings file (allow rules, other destinations, through the
 *   engine); `setMode` changes the session's mode;
 * - deny → the call is refused with the host's message; `interrupt: true` also ends the turn;
 * - a throw, or a malformed answer → deny (fail closed).
 * An ask with `forceConfirmation` (the classifier rated the call HIGH) is passed on as such.
 */
import type { PermissionDecider, PermissionMode, PermissionSuggestion } from '../core/permission-types.js';
import type { PermissionEngine } from '../permissions/engine.js';
import { parseRuleText } from '../permissions/rules/parse-rule.js';
import { askAllDecider } from '../runtime/index.js';
import type { LoopHooks } from './hooks.js';
import type { RunnerCanUseTool } from './tool-runner.js';
import type { CanUseTool, PermissionUpdate } from './types.js';

/** The runtime's decider: the engine (PreToolUse command hooks + callbacks), else `decide`, else ask-all. */
export function loopDecider(options: {
  engine?: PermissionEngine;
  decide?: PermissionDecider;
  hooks: LoopHooks;
  transcriptPath: string;
}): PermissionDecider {
  const { engine } = options;
  if (engine) {
    const callbacks = options.hooks.preToolUseCallbacks();
    const decideOptions = {
      transcriptPath: options.transcriptPath,
      ...(callbacks ? { preToolUseCallbacks: callbacks } : {}),
    };
    return (request) => engine.decide(request, decideOptions);
  }
  return options.decide ?? askAllDecider;
}

/** An engine suggestion as the SDK's `PermissionUpdate`. */
export function suggestionToUpdate(s: PermissionSuggestion): PermissionUpdate | undefined {
  const parsed = parseRuleText(s.rule);
  if (!parsed.ok) return undefined;
  const { toolName, ruleContent } = parsed.value;
  return {
    type: 'addRules',
    rules: [{ toolName, ...(ruleContent !== undefined ? { ruleContent } : {}) }],
    behavior: 'allow',
    destination: s.destination,
  };
}

/** Applies a host's `updatedPermissions` (see the module comment); returns what could not be applied. */
export function applyPermissionUpdates(
  updates: readonly PermissionUpdate[],
  deps: { engine?: PermissionEngine; setMode: (mode: PermissionMode) => void },
): string[] {
  const problems: string[] = [];
  for (const u of updates) {
    if (u?.type === 'setMode') {
      deps.setMode(u.mode);
      continue;
    }
    if (u?.type !== 'addRules' || !Array.isArray(u.rules)) {
      problems.push(`unsupported permission update ${JSON.stringify(u)}`);
      continue;
    }
    if (!deps.engine) {
      problems.push('no permission engine to add rules to');
      continue;
    }
    for (const r of u.rules) {
      const text = r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName;
      const result =
        u.behavior === 'allow' && u.destination !== 'session'
          ? deps.engine.acceptSuggestion({ rule: text, destination: u.destination }).problems
          : deps.engine.addSessionRule(text, u.behavior);
      for (const p of result) if (p.severity === 'error') problems.push(`${text}: ${p.message}`);
    }
  }
  return problems;
}

/** The runtime-side ask handler for a host `canUseTool`. */
export function bridgeCanUseTool(
  host: CanUseTool,
  deps: {
    engine?: PermissionEngine;
    agentId?: string;
    agentType?: string;
    setMode: (mode: PermissionMode) => void;
    /** Called when the host denies with `interrupt: true`. */
    onInterrupt: () => void;
    onProblem?: (message: string) => void;
  },
): RunnerCanUseTool {
  return async (tool, input, decision, context) => {
    const reason = decision.reason;
    const answer = await host(tool.name, input, {
      signal: context.abortController.signal,
      toolUseID: context.toolUseId ?? '',
      suggestions: decision.suggestions.map(suggestionToUpdate).filter((u): u is PermissionUpdate => !!u),
      decisionReason: reason.message,
      decisionReasonType: reason.type,
      ...(reason.type === 'working-directory' && reason.path ? { blockedPath: reason.path } : {}),
      ...(decision.forceConfirmation ? { forceConfirmation: true } : {}),
      ...(deps.agentId ? { agentID: deps.agentId } : {}),
      ...(deps.agentType ? { agentType: deps.agentType } : {}),
    });
    if (answer?.behavior === 'allow') {
      if (answer.updatedPermissions?.length) {
        for (const p of applyPermissionUpdates(answer.updatedPermissions, deps)) deps.onProblem?.(p);
      }
      return answer.updatedInput && typeof answer.updatedInput === 'object'
        ? { behavior: 'allow', updatedInput: answer.updatedInput }
        : { behavior: 'allow' };
    }
    if (answer?.behavior === 'deny') {
      if (answer.interrupt) deps.onInterrupt();
      return {
        behavior: 'deny',
        message: typeof answer.message === 'string' && answer.message ? answer.message : 'denied by the host',
      };
    }
    return { behavior: 'deny', message: 'the host gave no valid answer' };
  };
}
