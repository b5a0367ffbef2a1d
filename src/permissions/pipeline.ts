/**
 * The decision pipeline (issue 5; design.md §2 step 5; security corpus README "Decision order"):
 * a pure function of the prepared call, the rules, the mode and the working directories. It never
 * prompts and never runs anything; hooks have already run and arrive as a verdict.
 *
 *   1 PreToolUse hook deny                                  → deny
 *   2 deny rules (tool, parameters, sub-commands, Read/Edit over effects, domains), tool deny → deny
 *   3 protected-path writes, deny-level findings             → deny
 *     agent/VCS config writes, critical-path removals        → ask (every mode; never auto-allowed)
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
import type { PathResolver } from '../core/paths.js';
import type {
  DecisionReason,
  PermissionDecision,
  PermissionMode,
  PermissionRequest,
  SubcommandInfo,
} from '../core/permission-types.js';
import { type CallView, EDIT_TOOLS, type FileEffect, viewCall } from './call-view.js';
import { describeEffect, MODE_LABEL, modeReason, ruleReason } from './explain.js';
import type { HookVerdict } from './hooks/types.js';
import { isCriticalRemovalTarget, matchProtectedWrite } from './protected-paths.js';
import {
  allowPathCovers,
  allowRuleEligible,
  matchRestrictive,
  matchShellAllow,
  matchToolAllow,
} from './rule-match.js';
import type { CompiledRule, RuleSet } from './rules/rule-set.js';
import { isExemptDevicePath, type WorkingDirectories } from './working-dirs.js';

/** Bash programs acceptEdits allows on in-project paths (security corpus README "Modes"). */
export const DEFAULT_ACCEPT_EDITS_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'cp', 'mv']);

/** Tools plan mode lets through to the normal flow although they are not read-only (spec §2.16, §3.8). */
export const PLAN_MODE_PASS: ReadonlySet<string> = new Set([
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'TodoWrite',
  'TaskCreate',
  'TaskGet',
  'TaskUpdate',
  'TaskList',
  'TaskOutput',
  'Agent',
  'Task',
]);

export interface PipelineInput {
  request: PermissionRequest;
  rules: RuleSet;
  /** Effective mode (after disable* settings). */
  mode: PermissionMode;
  workingDirs: WorkingDirectories;
  home: string;
  resolver: PathResolver;
  /** This Bash call will run sandboxed and settings auto-allow sandboxed commands (spec §7.5). */
  sandboxAutoAllow: boolean;
  hook?: HookVerdict;
  acceptEditsCommands?: ReadonlySet<string>;
  /** Directories that may be read (not written) without asking: the session's spill directory. */
  readableDirs?: WorkingDirectories;
}

export type PipelineStep =
  | 'hook'
  | 'deny-rule'
  | 'tool'
  | 'protected-path'
  | 'config-path'
  | 'check'
  | 'ask-rule'
  | 'mode'
  | 'sandbox'
  | 'allow-rule'
  | 'read-only'
  | 'default';

export interface PipelineResult {
  decision: PermissionDecision;
  step: PipelineStep;
  /** An ask from step 4 or 8: auto mode hands it to the classifier, suggestions may apply. */
  classifierEligible: boolean;
  view: CallView;
  /** One line per step that looked at the call, for `gantry check`. */
  trace: string[];
}

const allow = (reason: DecisionReason): PermissionDecision => ({ behavior: 'allow', reason });
const ask = (reason: DecisionReason): PermissionDecision => ({ behavior: 'ask', reason, suggestions: [] });
const deny = (reason: DecisionReason): PermissionDecision => ({ behavior: 'deny', reason });

function isReadOnlyCall(req: PermissionRequest): boolean {
  return req.isReadOnly || req.description.readOnly;
}

/** Step 3: protected writes (deny), config writes and critical removals (ask). */
function protectedStep(view: CallView, input: PipelineInput): PipelineResult['decision'] | undefined {
  let configHit: PermissionDecision | undefined;
  for (const f of view.files) {
    if (f.access !== 'write') continue;
    for (const p of f.resolved === f.lexical ? [f.lexical] : [f.lexical, f.resolved]) {
      const m = matchProtectedWrite(p);
      if (m?.kind === 'protected')
        return deny({
          type: 'protected-path',
          path: p,
          effect: f.effect,
          message: `Blocked: ${describeEffect(f.effect)} touches a protected path (${p}: ${m.label}). Protected files are never written, in any mode.`,
        });
      if (m && !configHit)
        configHit = ask({
          type: 'config-path',
          path: p,
          effect: f.effect,
          message: `Needs approval: ${describeEffect(f.effect)} changes agent/VCS configuration (${p}: ${m.label}); it is never changed without asking.`,
        });
    }
    if (
      !configHit &&
      f.effect.kind === 'delete' &&
      isCriticalRemovalTarget(f.resolved, input.home, input.workingDirs.dirs)
    )
      configHit = ask({
        type: 'check',
        checkId: 'CRITICAL_PATH_REMOVAL',
        path: f.resolved,
        effect: f.effect,
        message: `Needs approval: ${describeEffect(f.effect)} removes a critical path (${f.resolved}); asked in every mode.`,
      });
  }
  return configHit;
}

/** Step 4: findings, unknown effects, file effects outside the working directories. */
function checksStep(view: CallView, input: PipelineInput): DecisionReason | undefined {
  for (const finding of view.description.findings)
    if (finding.behavior === 'ask') {
      const sub = finding.subcommand !== undefined ? view.subcommands[finding.subcommand] : undefined;
      return {
        type: 'check',
        checkId: finding.id,
        message: `Needs approval: ${finding.message} [${finding.id}]${sub ? ` in sub-command "${sub.text}"` : ''}.`,
      };
    }
  // An unknown host matters only to WebFetch domain rules; without any, a network effect whose host
  // is unknown (`npx` may download, `curl $URL`) does not ask by itself: it already keeps the command
  // from being read-only, so only an allow rule for the program can let it through.
  const domainRules = input.rules.domainRules('deny').length + input.rules.domainRules('ask').length > 0;
  const firstUnknown = view.unknown.find((e) => e.kind !== 'network' || domainRules);
  if (firstUnknown)
    return {
      type: 'unknown-effect',
      effect: firstUnknown,
      message: `Needs approval: the target of a ${firstUnknown.kind} (${firstUnknown.target}${firstUnknown.detail ? `, ${firstUnknown.detail}` : ''}) cannot be determined before it runs.`,
    };
  for (const f of view.files) {
    if (f.fromExec) continue;
    if (isExemptDevicePath(f.resolved, f.access)) continue;
    if (input.workingDirs.contains(f.resolved)) continue;
    if (f.access === 'read' && input.readableDirs?.contains(f.resolved)) continue;
    if (allowPathCovers(input.rules, f)) continue;
    return {
      type: 'working-directory',
      path: f.resolved,
      effect: f.effect,
      message: `Needs approval: ${describeEffect(f.effect)}${f.resolved !== f.lexical ? ` (resolves to ${f.resolved})` : ''} is outside the working directories (${input.workingDirs.describe()}).`,
    };
  }
  return undefined;
}

/**
 * An unknown effect that could hide a protected write or a rule match (for the modes that skip the
 * safety checks): unknown writes and deletes always (a protected file could be the target); unknown
 * reads when Read deny/ask rules exist; unknown execs when Bash deny/ask rules exist; unknown hosts
 * when WebFetch domain rules exist.
 */
function hiddenRuleRisk(view: CallView, input: PipelineInput): DecisionReason | undefined {
  if (!view.unknown.length) return undefined;
  const rules = input.rules;
  const pathRules = rules.pathRules('deny').length + rules.pathRules('ask').length > 0;
  const domainRules = rules.domainRules('deny').length + rules.domainRules('ask').length > 0;
  const shellRules = [...rules.forTool('deny', view.toolName), ...rules.forTool('ask', view.toolName)].some(
    (r) => r.kind === 'shell',
  );
  const risky = view.unknown.find(
    (e) =>
      e.kind === 'write' ||
      e.kind === 'delete' ||
      (e.kind === 'read' && pathRules) ||
      (e.kind === 'exec' && shellRules) ||
      (e.kind === 'network' && domainRules),
  );
  if (!risky) return undefined;
  return {
    type: 'unknown-effect',
    effect: risky,
    message: `Needs approval even in ${MODE_LABEL[input.mode]}: the target of a ${risky.kind} (${risky.target}${risky.detail ? `, ${risky.detail}` : ''}) cannot be determined, so a deny rule or a protected path could be hit.`,
  };
}

/**
 * True when sub-command `i` writes or deletes a file (device paths aside) or reaches the network:
 * then it is not read-only whatever its program (a redirect into a file, `sort -o`, a download).
 */
function hasSideEffects(view: CallView, i: number): boolean {
  return (
    view.files.some(
      (f) => f.access === 'write' && f.effect.subcommand === i && !isExemptDevicePath(f.resolved, 'write'),
    ) || view.description.effects.some((e) => e.kind === 'network' && e.subcommand === i)
  );
}

/** Step 6 acceptEdits: file-edit tools, or shell calls made only of read-only/allowed/simple fs commands. */
function acceptEditsAllows(view: CallView, input: PipelineInput): boolean {
  if (view.network.length || view.unknown.length) return false;
  if (EDIT_TOOLS.has(view.toolName))
    return view.files.length > 0 && view.files.every((f) => f.access === 'write' || f.access === 'read');
  if (!view.isShell || view.subcommands.length === 0) return false;
  const cmds = input.acceptEditsCommands ?? DEFAULT_ACCEPT_EDITS_COMMANDS;
  return view.subcommands.every((sub, i) => {
    if (sub.readOnly && !hasSideEffects(view, i)) return true;
    if (cmds.has(sub.program) && allowRuleEligible(sub)) return true;
    return matchShellAllow(input.rules, view.toolName, sub, false) !== undefined;
  });
}

/** Step 7: allow rules and read-only. */
function allowStep(view: CallView, input: PipelineInput): PipelineResult | undefined {
  const req = input.request;
  const skipBroad = input.mode === 'auto';
  const done = (step: PipelineStep, reason: DecisionReason): PipelineResult => ({
    decision: allow(reason),
    step,
    classifierEligible: false,
    view,
    trace: [],
  });
  if (view.isShell) {
    const subs = view.subcommands;
    if (subs.length === 0) {
      if (req.description.readOnly && view.files.every((f) => f.access === 'read'))
        return done('read-only', { type: 'read-only', message: 'Allowed: the command is read-only.' });
      return undefined;
    }
    const rulesUsed: CompiledRule[] = [];
    const readOnlyNames: string[] = [];
    for (let i = 0; i < subs.length; i++) {
      const sub = subs[i] as SubcommandInfo;
      if (sub.readOnly && !hasSideEffects(view, i) && !sub.program.includes('/') && !sub.dynamicProgram) {
        readOnlyNames.push(sub.program);
        continue;
      }
      const rule = matchShellAllow(input.rules, view.toolName, sub, skipBroad);
      if (!rule) return undefined;
      rulesUsed.push(rule);
    }
    const first = rulesUsed[0];
    if (first) {
      const others = rulesUsed.length > 1 ? ` and ${rulesUsed.length - 1} more allow rule(s)` : '';
      const ro = readOnlyNames.length ? `; read-only: ${[...new Set(readOnlyNames)].join(', ')}` : '';
      const r = ruleReason(first.rule, `every sub-command needing a rule${others}${ro}`);
      return done('allow-rule', {
        ...r,
        message: `${r.message} Every path stays inside the working directories.`,
      });
    }
    return done('read-only', {
      type: 'read-only',
      message: `Allowed: every sub-command is read-only (${[...new Set(readOnlyNames)].join(', ')}) and every path is inside the working directories.`,
    });
  }
  const toolHit = matchToolAllow(input.rules, view, skipBroad);
  if (toolHit) return done('allow-rule', ruleReason(toolHit.rule.rule, toolHit.detail));
  if (view.files.length && !view.network.length && !view.unknown.length) {
    const covering = view.files.map((f) => allowPathCovers(input.rules, f));
    const first = covering[0];
    if (first && covering.every(Boolean))
      return done(
        'allow-rule',
        ruleReason(
          first.rule,
          `every path of this ${view.toolName} call (${view.files.map((f) => f.lexical).join(', ')})`,
        ),
      );
  }
  if (req.toolResult.behavior === 'allow')
    return done('allow-rule', {
      type: 'tool',
      message: `Allowed by the ${view.toolName} tool: ${req.toolResult.reason}`,
    });
  if (
    req.isReadOnly &&
    !view.toolName.startsWith('mcp__') &&
    !view.network.length &&
    view.files.every((f) => f.access === 'read')
  )
    return done('read-only', {
      type: 'read-only',
      message: `Allowed: ${view.toolName} is read-only here and every path is inside the working directories.`,
    });
  return undefined;
}

/** Runs steps 1–8 (see module doc). */
export function runPipeline(input: PipelineInput): PipelineResult {
  const req = input.request;
  const view = viewCall(req.toolName, req.input, req.description, { cwd: req.cwd, resolver: input.resolver });
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
  if (mode === 'plan' && !isReadOnlyCall(req) && !PLAN_MODE_PASS.has(req.toolName))
    return out(
      deny(
        modeReason(
          'plan',
          `Refused in plan mode: ${req.toolName} would change something and plan mode allows only read-only tools. Finish the plan and call ExitPlanMode to ask the user to approve it first.`,
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

export type { FileEffect };
