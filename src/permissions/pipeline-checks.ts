/**
 * Pipeline steps 3 and 4 (pipeline.ts): protected and configuration paths, critical removals,
 * unknown effects that could hide a rule match, and the safety checks (findings, unknown effects,
 * paths outside the working directories).
 */
import type { DecisionReason, PermissionDecision } from '../core/permission-types.js';
import type { CallView } from './call-view.js';
import { describeEffect, MODE_LABEL } from './explain.js';
import { ask, deny, type PipelineInput } from './pipeline-types.js';
import { isCriticalRemovalTarget, matchProtectedWrite } from './protected-paths.js';
import { allowPathCovers } from './rule-match.js';
import { isExemptDevicePath } from './working-dirs.js';

/** Step 3: protected writes (deny), config writes and critical removals (ask). */
export function protectedStep(view: CallView, input: PipelineInput): PermissionDecision | undefined {
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
export function checksStep(view: CallView, input: PipelineInput): DecisionReason | undefined {
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
export function hiddenRuleRisk(view: CallView, input: PipelineInput): DecisionReason | undefined {
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
export function hasSideEffects(view: CallView, i: number): boolean {
  return (
    view.files.some(
      (f) => f.access === 'write' && f.effect.subcommand === i && !isExemptDevicePath(f.resolved, 'write'),
    ) || view.description.effects.some((e) => e.kind === 'network' && e.subcommand === i)
  );
}
