/**
 * The decision pipeline (docs/architecture.md; docs/security-round-2.md):
 * a pure function of the prepared call, the rules, the mode and the working directories. It never
 * prompts and never runs anything; hooks have already run and arrive as a verdict.
 *
 *   0 plan mode: anything not read-only (except the session's plan file) → deny, before any other check
 *   1 PreToolUse hook deny                                  → deny
 *   2 deny rules (tool, parameters, sub-commands, Read/Edit over effects, domains), tool deny → deny
 *   3 deny-level findings, destructive-floor deny rows, protected-path writes → deny
 *     destructive-floor ask rows, agent/VCS config writes, critical-path removals, control
 *     characters in a path, credential reads and secret-printing findings, an analysis that
 *     stopped early (`everyMode` findings) → ask (every mode; never auto-allowed)
 *     hook ask                                               → ask
 *   4 findings, unknown effects, paths outside the working directories → ask
 *     (skipped by bypassPermissions, a hook allow, and sandbox auto-allow)
 *   5 ask rules, the tool's own ask                          → ask
 *     hook allow                                             → allow
 *   6 mode: plan allows writing its plan file; bypassPermissions and sandbox auto-allow allow;
 *     acceptEdits allows file edits and simple in-project filesystem commands
 *   7 allow rules / read-only                                → allow
 *   8 otherwise                                              → ask
 *
 * dontAsk (ask → deny) and auto (classifier) are applied by the engine on the result: asks from
 * steps 4 and 8 are `classifierEligible`.
 */
import path from 'node:path';
import type { PathResolver } from '../core/paths.js';
import type { PermissionDecision, PermissionRequest } from '../core/permission-types.js';
import { type CallView, viewCall } from './call-view.js';
import { MODE_LABEL, modeReason, ruleReason } from './explain.js';
import { acceptEditsAllows, allowStep } from './pipeline-allow.js';
import {
  checksStep,
  everyModeFinding,
  hasSideEffects,
  pathCharacterStep,
  hiddenRuleRisk,
  protectedStep,
} from './pipeline-checks.js';
import { floorStep, secretStep } from './pipeline-floor.js';
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

/**
 * True when every effect of a file-editing call writes the session's plan file. Its directory may
 * be reached through a symlink (a linked `~/.gantry` or `plansDirectory`); the file itself may not
 * be a link (it would let plan mode write where the link points).
 */
function writesOnlyPlanFile(
  view: ReturnType<typeof viewCall>,
  planFile: string | undefined,
  resolver: PathResolver,
): boolean {
  if (!planFile || !view.traits.editFamily || view.unknown.length || !view.files.length) return false;
  const real = path.join(resolver.realpath(path.dirname(planFile)), path.basename(planFile));
  return view.files.every((f) => f.lexical === planFile && f.resolved === real);
}

/** The pipeline's result: `decision` taken at `step` (a module function: no closure per decision). */
function out(
  view: CallView,
  trace: string[],
  decision: PermissionDecision,
  step: PipelineStep,
  classifierEligible = false,
): PipelineResult {
  trace.push(`${step}: ${decision.behavior} — ${decision.reason.message}`);
  return { decision, step, classifierEligible, view, trace };
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
  const hook = input.hook;
  const hookName = hook?.hook ?? '';
  // 0. Plan mode refuses every change before any other check (the plan file aside).
  const planFile = input.mode === 'plan' && writesOnlyPlanFile(view, input.planFile, input.resolver);
  if (input.mode === 'plan' && !planFile && !isReadOnlyCall(req) && !view.traits.planModePass)
    return out(
      view,
      trace,
      deny(
        modeReason(
          'plan',
          `Refused in plan mode: ${req.toolName} would change something and plan mode allows only read-only tools. Finish the plan and call ExitPlanMode to ask the user to approve it first.`,
        ),
      ),
      'mode',
    );
  // 1. PreToolUse hook deny.
  if (hook?.decision === 'deny')
    return out(
      view,
      trace,
      deny({
        type: 'hook',
        hook: hookName,
        message: `Denied by PreToolUse hook \`${hookName}\`: ${hook.reason ?? 'no reason given'}`,
      }),
      'hook',
    );
  // 2. Deny rules; the tool's own deny.
  const denyHit = matchRestrictive(input.rules, 'deny', view);
  if (denyHit) return out(view, trace, deny(ruleReason(denyHit.rule.rule, denyHit.detail)), 'deny-rule');
  if (req.toolResult.behavior === 'deny')
    return out(
      view,
      trace,
      deny({ type: 'tool', message: `Denied by the ${req.toolName} tool: ${req.toolResult.reason}` }),
      'tool',
    );
  trace.push('deny-rule: no deny rule matches');
  // 3. Deny-level findings, the destructive floor, protected and config paths, critical removals,
  // every-mode findings, credential reads, hook ask.
  const denyFinding = req.description.findings.find((f) => f.behavior === 'deny');
  if (denyFinding)
    return out(
      view,
      trace,
      deny({
        type: 'check',
        checkId: denyFinding.id,
        message: `Blocked: ${denyFinding.message} [${denyFinding.id}].`,
      }),
      'check',
    );
  const oddPath = pathCharacterStep(view);
  if (oddPath) return out(view, trace, oddPath, 'check');
  const floor = floorStep(view, input);
  if (floor?.behavior === 'deny') return out(view, trace, floor, 'floor');
  const prot = protectedStep(view, input);
  if (prot?.behavior === 'deny') return out(view, trace, prot, 'protected-path');
  if (floor) return out(view, trace, floor, 'floor');
  // The plan file lives under the agent's configuration directory; plan mode may write it.
  if (prot && !planFile) return out(view, trace, prot, 'config-path');
  trace.push('floor: no destructive-floor row matches');
  const everyMode = everyModeFinding(view);
  if (everyMode) return out(view, trace, ask(everyMode), 'check');
  const secret = secretStep(view, input);
  if (secret) return out(view, trace, ask(secret), 'secret');
  if (planFile)
    return out(
      view,
      trace,
      allow(
        modeReason('plan', `Allowed in plan mode: this writes the session's plan file (${input.planFile}).`),
      ),
      'mode',
    );
  if (hook?.decision === 'ask')
    return out(
      view,
      trace,
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
    if (hidden) return out(view, trace, ask(hidden), 'check');
  }
  if (!skipChecks) {
    const check = checksStep(view, input);
    if (check) return out(view, trace, ask(check), 'check', true);
    trace.push('check: no finding, every effect known and inside the working directories');
  }
  // 5. Ask rules (a bare Bash ask rule does not apply to sandboxed commands, the Claude Code sandboxing docs); the tool's ask.
  const skipBare = input.sandboxAutoAllow
    ? (r: CompiledRule) => r.kind === 'tool' || r.shell?.type === 'any'
    : undefined;
  const askHit = matchRestrictive(input.rules, 'ask', view, skipBare);
  if (askHit) return out(view, trace, ask(ruleReason(askHit.rule.rule, askHit.detail)), 'ask-rule');
  if (req.toolResult.behavior === 'ask')
    return out(
      view,
      trace,
      ask({ type: 'tool', message: `The ${req.toolName} tool asks for approval: ${req.toolResult.reason}` }),
      'tool',
    );
  if (hook?.decision === 'allow')
    return out(
      view,
      trace,
      allow({
        type: 'hook',
        hook: hookName,
        message: `Allowed by PreToolUse hook \`${hookName}\`${hook.reason ? `: ${hook.reason}` : ''}; no deny or ask rule matches.`,
      }),
      'hook',
    );
  // 6. Mode (plan mode's refusal is step 0).
  const mode = input.mode;
  if (mode === 'dontAsk' && view.traits.requiresUserInteraction)
    return out(
      view,
      trace,
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
      view,
      trace,
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
      view,
      trace,
      allow({
        type: 'sandbox',
        message:
          'Allowed: the command runs in the sandbox and sandbox.autoAllowBashIfSandboxed is on (no deny rule, protected path or ask rule applies).',
      }),
      'sandbox',
    );
  if (mode === 'acceptEdits' && acceptEditsAllows(view, input))
    return out(
      view,
      trace,
      allow(
        modeReason(
          mode,
          `Allowed: acceptEdits mode permits ${view.isShell ? 'simple filesystem commands and redirections into files' : 'file edits'} inside the working directories.`,
        ),
      ),
      'mode',
    );
  // 7. Allow rules / read-only.
  const allowed = allowStep(view, input);
  if (allowed) return out(view, trace, allowed.decision, allowed.step);
  trace.push('allow-rule: no allow rule covers every part and the call is not read-only');
  // 8. Otherwise ask.
  return out(
    view,
    trace,
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
