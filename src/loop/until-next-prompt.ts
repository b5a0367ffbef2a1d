/**
 * What lasts until the person's next message (`UntilNextPromptControls` of core/services.ts): a
 * skill's `allowed-tools` as temporary allow rules, its `disallowed-tools` as temporary deny rules,
 * its `model` as the model of the requests. `clear()` — called when the next user prompt arrives —
 * takes every rule back and restores the model.
 *
 * What is granted:
 * - deny rules always (they only narrow);
 * - allow rules through the permission engine as session rules, so every earlier step still holds:
 *   deny rules (the user's, managed ones) and protected paths come before allow rules and cannot
 *   be undone by them, and ask rules still ask;
 * - refused: allow rules of a project skill when the project folder is not trusted (the same rule
 *   as project settings' allow rules), allow rules that would allow every command of a shell (`Bash`, `Bash(*)`,
 *   `PowerShell`, …: a skill names the commands it needs), rules that do not parse, and any allow
 *   rule when the session has no permission engine.
 */
import type { TemporaryRulesRequest, TemporaryRulesResult, UntilNextPromptControls } from '../core/index.js';
import type { PermissionEngine } from '../permissions/engine.js';
import { parseRuleText } from '../permissions/rules/parse-rule.js';

const SHELL_TOOLS = new Set(['Bash', 'PowerShell', 'Monitor']);

/** True for an allow rule that would cover every command of a shell tool. */
function wholeShell(rule: string): boolean {
  const parsed = parseRuleText(rule);
  if (!parsed.ok) return false;
  const { toolName, ruleContent } = parsed.value;
  if (!SHELL_TOOLS.has(toolName)) return false;
  const content = ruleContent?.trim();
  return content === undefined || content === '' || content === '*' || content === ':*';
}

export class UntilNextPrompt implements UntilNextPromptControls {
  private removers: (() => void)[] = [];
  private restoreModel: (() => void) | undefined;

  constructor(
    private readonly engine: PermissionEngine | undefined,
    private readonly model: { get(): string; set(model: string): void },
  ) {}

  addRules(request: TemporaryRulesRequest): TemporaryRulesResult {
    const result: TemporaryRulesResult = { granted: [], refused: [] };
    const add = (rule: string, behavior: 'allow' | 'deny') => {
      if (!this.engine) {
        result.refused.push({
          rule,
          reason: 'this session has no permission engine to hold temporary rules',
        });
        return;
      }
      const trust = this.engine.settings.trust;
      if (behavior === 'allow' && request.origin === 'project' && !trust.trusted) {
        result.refused.push({
          rule,
          reason: `a project skill widens permissions only in a trusted folder (${trust.reason})`,
        });
        return;
      }
      if (behavior === 'allow' && wholeShell(rule)) {
        result.refused.push({ rule, reason: 'allows every shell command; name the commands instead' });
        return;
      }
      const { problems, remove } = this.engine.addTemporaryRule(rule, behavior);
      const error = problems.find((p) => p.severity === 'error');
      if (error) {
        remove();
        result.refused.push({ rule, reason: error.message });
        return;
      }
      this.removers.push(remove);
      result.granted.push(rule);
    };
    for (const rule of request.deny) add(rule, 'deny');
    for (const rule of request.allow) add(rule, 'allow');
    return result;
  }

  overrideModel(model: string): void {
    const previous = this.model.get();
    this.restoreModel ??= () => this.model.set(previous);
    this.model.set(model);
  }

  /** Takes back every temporary rule and restores the model (the next user prompt arrived). */
  clear(): void {
    for (const remove of this.removers.splice(0)) remove();
    this.restoreModel?.();
    this.restoreModel = undefined;
  }
}
