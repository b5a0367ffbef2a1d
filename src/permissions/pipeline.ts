/**
 * The decision pipeline (issue 5; design.md §2 step 5; security corpus README "Decision order"):
 * a pure function of the prepared call, the rules, the mode and the working directories. It never
 * prompts and never runs anything; hooks have already run and arrive as a verdict.
 *
 *   1 PreToolUse hook deny                                  → deny
 *   2 deny rules (tool, parameters, sub-commands, Read/Edit over effects, domains), tool deny → deny
 *   3 protected-path writes, deny-level findings             → deny
 *     agent/VCS config writes, critical-path removals        → ask (every mode; never auto-allowed)
 *     an analysis that stopped early (`everyMode` finding)   → ask (every mode; never auto-allowed)
 *     hook ask                                               → ask
 *   4 findings, unknown effects, paths outside the working directories → ask
 *     (skipped by bypassPermissions, a hook allow, and sandbox auto-allow)
 *   5 ask rules, the tool's own ask                          → ask
 *     hook allow                                             → allow
 *   6 mode: plan refuses what is not read-only; bypassPermissions and sandbox auto-allow allow;
 *     acceptEdits allows file edits and simple in-project filesystem commands
 *   7 allow rules / read-only                                → allow
 *   8 otherwise                                              → ask
 *
 * dontAsk (ask → deny) and auto (classifier) are applied by the engine on the result: asks from
 * steps 4 and 8 are `classifierEligible`.
 */
import type { PermissionDecision, PermissionRequest } from '../core/permission-types.js';
import { viewCall } from './call-view.js';
import { MODE_LABEL, modeReason, ruleReason } from './explain.js';
import { acceptEditsAllows, allowStep } from './pipeline-allow.js';
import { checksStep, hasSideEffects, hiddenRuleRisk, protectedStep } from './pipeline-checks.js';
import {
  allow,
  ask,
  deny,
  type PipelineInput,
  type PipelineResult,
  type PipelineStep,
} from './pipeline-types.js';
import { matchRestrictive } from './rule-match.js';
import type { CompiledRule } from './rules/rule-set.js';

export {
  DEFAULT_ACCEPT_EDITS_COMMANDS,
  PLAN_MODE_PASS,
  type PipelineInput,
  type PipelineResult,
  type PipelineStep,
} from './pipeline-types.js';

function isReadOnlyCall(req: PermissionRequest): boolean {
  return req.isReadOnly || req.description.readOnly;
}

/** Runs steps 1–8 (see module doc). */
export function runPipeline(input: PipelineInput): PipelineResult {
  const req = input.request;
  const view = viewCall(req.toolName, req.input, req.description, {
    cwd: req.cwd,
    resolver: input.resolver,
    ...(req.isMcp !== undefined ? { isMcp: req.isMcp } : {}),
  });
  const trace: string[] = [];
  const out = (
    decision: PermissionDecision,
    step: PipelineStep,
    classifierEligible = false,
  ): PipelineResult => {
    trace.push(`${step}: ${decision.behavior} — ${decision.reason.message}`);
    return { decision, step, classifierEligible, view, trace };
  };
  const hook = input.hook;
  const hookName = hook?.hook ?? '';
  // 1. PreToolUse hook deny.
  if (hook?.decision === 'deny')
    return out(
      deny({
        type: 'hook',
        hook: hookName,
        message: `Denied by PreToolUse hook \`${hookName}\`: ${hook.reason ?? 'no reason given'}`,
      }),
      'hook',
    );
  // 2. Deny rules; the tool's own deny.
  const denyHit = matchRestrictive(input.rules, 'deny', view);
  if (denyHit) return out(deny(ruleReason(denyHit.rule.rule, denyHit.detail)), 'deny-rule');
  if (req.toolResult.behavior === 'deny')
    return out(
      deny({ type: 'tool', message: `Denied by the ${req.toolName} tool: ${req.toolResult.reason}` }),
      'tool',
    );
  trace.push('deny-rule: no deny rule matches');
  // 3. Protected paths, deny-level findings, config paths, critical removals, hook ask.
  const denyFinding = req.description.findings.find((f) => f.behavior === 'deny');
  if (denyFinding)
    return out(
      deny({
        type: 'check',
        checkId: denyFinding.id,
        message: `Blocked: ${denyFinding.message} [${denyFinding.id}].`,
      }),
      'check',
    );
  const prot = protectedStep(view, input);
  if (prot) return out(prot, prot.behavior === 'deny' ? 'protected-path' : 'config-path');
  // An analysis that stopped early (docs/analysis-budget.md): no mode, hook or sandbox lifts it.
  const incomplete = req.description.findings.find((f) => f.behavior === 'ask' && f.everyMode);
  if (incomplete)
    return out(
      ask({
        type: 'check',
        checkId: incomplete.id,
        message: `Needs approval in every mode: ${incomplete.message} [${incomplete.id}].`,
      }),
      'check',
    );
  if (hook?.decision === 'ask')
    return out(
      ask({
        type: 'hook',
        hook: hookName,
        message: `PreToolUse hook \`${hookName}\` asks for approval${hook.reason ? `: ${hook.reason}` : '.'}`,
      }),
      'hook',
    );
  trace.push('protected-path: no protected or configuration path is written');
  // 4. Safety checks (not in bypassPermissions, after a hook allow, or for sandbox auto-allow).
  const skipChecks =
    input.mode === 'bypassPermissions' || hook?.decision === 'allow' || input.sandboxAutoAllow;
  if (skipChecks && !input.sandboxAutoAllow) {
    // Even bypassPermissions and a hook allow must not run what could hide a deny rule or a
    // protected write: an effect whose target is unknown (`echo x > $F`, `cat $f`, `$cmd`).
    const hidden = hiddenRuleRisk(view, input);
    if (hidden) return out(ask(hidden), 'check');
  }
  if (!skipChecks) {
    const check = checksStep(view, input);
    if (check) return out(ask(check), 'check', true);
    trace.push('check: no finding, every effect known and inside the working directories');
  }
  // 5. Ask rules (a bare Bash ask rule does not apply to sandboxed commands, spec §7.5); the tool's ask.
  const skipBare = input.sandboxAutoAllow
    ? (r: CompiledRule) => r.kind === 'tool' || r.shell?.type === 'any'
    : undefined;
  const askHit = matchRestrictive(input.rules, 'ask', view, skipBare);
  if (askHit) return out(ask(ruleReason(askHit.rule.rule, askHit.detail)), 'ask-rule');
  if (req.toolResult.behavior === 'ask')
    return out(
      ask({ type: 'tool', message: `The ${req.toolName} tool asks for approval: ${req.toolResult.reason}` }),
      'tool',
    );
  if (hook?.decision === 'allow')
    return out(
      allow({
        type: 'hook',
        hook: hookName,
        message: `Allowed by PreToolUse hook \`${hookName}\`${hook.reason ? `: ${hook.reason}` : ''}; no deny or ask rule matches.`,
      }),
      'hook',
    );
  // 6. Mode.
  const mode = input.mode;
  if (mode === 'plan' && !isReadOnlyCall(req) && !view.traits.planModePass)
    return out(
      deny(
        modeReason(
          'plan',
          `Refused in plan mode: ${req.toolName} would change something and plan mode allows only read-only tools. Finish the plan and call ExitPlanMode to ask the user to approve it first.`,
        ),
      ),
      'mode',
    );
  if (mode === 'dontAsk' && view.traits.requiresUserInteraction)
    return out(
      deny(
        modeReason(
          'dontAsk',
          `Denied in dontAsk mode: ${req.toolName} needs a person to answer, and dontAsk never asks anyone.`,
        ),
      ),
      'mode',
    );
  if (mode === 'bypassPermissions')
    return out(
      allow(
        modeReason(
          mode,
          'Allowed: bypassPermissions mode (no deny rule, protected path or ask rule applies).',
        ),
      ),
      'mode',
    );
  if (input.sandboxAutoAllow && mode !== 'plan')
    return out(
      allow({
        type: 'sandbox',
        message:
          'Allowed: the command runs in the sandbox and sandbox.autoAllowBashIfSandboxed is on (no deny rule, protected path or ask rule applies).',
      }),
      'sandbox',
    );
  if (mode === 'acceptEdits' && acceptEditsAllows(view, input))
    return out(
      allow(
        modeReason(
          mode,
          `Allowed: acceptEdits mode permits ${view.isShell ? 'simple filesystem commands' : 'file edits'} inside the working directories.`,
        ),
      ),
      'mode',
    );
  // 7. Allow rules / read-only.
  const allowed = allowStep(view, input);
  if (allowed) return out(allowed.decision, allowed.step);
  trace.push('allow-rule: no allow rule covers every part and the call is not read-only');
  // 8. Otherwise ask.
  return out(
    ask({
      type: 'default',
      message: `Needs approval: no rule allows this ${req.toolName} call${
        view.isShell
          ? ` (${
              view.subcommands
                .filter((s, i) => !(s.readOnly && !hasSideEffects(view, i)))
                .map((s) => `"${s.text}"`)
                .join(', ') || req.description.summary
            })`
          : ''
      } in ${MODE_LABEL[mode]}.`,
    }),
    'default',
    true,
  );
}
