/**
 * Every decision explains itself (docs/architecture.md): the reason names what decided — the rule
 * text with its source file and line, the check id, the protected path, the effect, the mode, the
 * hook — in a sentence a person and the model can read.
 */
import type { Effect } from '../core/effects.js';
import type {
  DecisionReason,
  PermissionDecision,
  PermissionMode,
  PermissionRule,
} from '../core/permission-types.js';

const SOURCE_LABEL: Readonly<Record<PermissionRule['source'], string>> = {
  managed: 'managed settings',
  cliArg: 'command line',
  localSettings: 'local project settings',
  projectSettings: 'project settings',
  userSettings: 'user settings',
  session: 'this session',
  hook: 'a hook',
};

/** `Bash(rm:*)` from /p/.claude/settings.json:7 (project settings). */
export function describeRule(rule: PermissionRule): string {
  const where = rule.file ? `${rule.file}${rule.line !== undefined ? `:${rule.line}` : ''}` : undefined;
  return `${rule.behavior} rule ${rule.text} (${where ? `${where}, ` : ''}${SOURCE_LABEL[rule.source]})`;
}

/** `write of /p/.env via > redirect`. */
export function describeEffect(e: Effect): string {
  const verb = {
    read: 'read',
    write: 'write',
    delete: 'deletion',
    exec: 'execution',
    network: 'network access',
    env: 'environment change',
  }[e.kind];
  return `${verb} of ${e.target}${e.detail ? ` via ${e.detail}` : ''}`;
}

export function ruleReason(rule: PermissionRule, detail: string): DecisionReason {
  const verb = rule.behavior === 'deny' ? 'Denied' : rule.behavior === 'ask' ? 'Needs approval' : 'Allowed';
  return { type: 'rule', rule, message: `${verb} by ${describeRule(rule)}, matching ${detail}.` };
}

export function modeReason(mode: PermissionMode, message: string): DecisionReason {
  return { type: 'mode', mode, message };
}

export const MODE_LABEL: Readonly<Record<PermissionMode, string>> = {
  default: 'default mode',
  acceptEdits: 'acceptEdits mode',
  plan: 'plan mode',
  dontAsk: 'dontAsk mode',
  bypassPermissions: 'bypassPermissions mode',
  auto: 'auto mode',
};

/** dontAsk mode (the Claude Code permissions docs): what would ask is denied, and the model is told its next step. */
export function dontAskDenial(reason: DecisionReason): PermissionDecision {
  return {
    behavior: 'deny',
    reason: {
      ...reason,
      message: `Denied: this call needs the user's approval and dontAsk mode never asks. ${reason.message} Do it another way that is already allowed, or tell the user which permission is needed.`,
    },
  };
}
