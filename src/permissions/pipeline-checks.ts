/**
 * Pipeline steps 3 and 4 (pipeline.ts): protected and configuration paths, critical removals,
 * unknown effects that could hide a rule match, and the safety checks (findings, unknown effects,
 * paths outside the working directories).
 */
import path from 'node:path';
import type { DecisionReason, PermissionDecision } from '../core/permission-types.js';
import type { CallView } from './call-view.js';
import { describeEffect, MODE_LABEL } from './explain.js';
import { ask, deny, type PipelineInput } from './pipeline-types.js';
import { deleteScope, SECRET_FINDING_IDS } from '../core/destructive-floor/index.js';
import type { Effect } from '../core/effects.js';
import { getOwn } from '../core/get-own.js';
import { PATH_CONTROL_CHARACTER, pathCharacterFindings } from '../core/path-characters.js';
import { otherRepositoryReason } from './git-repository.js';
import { isCriticalRemovalTarget, matchProtectedWrite } from './protected-paths.js';
import { allowPathCovers, matchShellAllow } from './rule-match.js';
import { isExemptDevicePath } from './working-dirs.js';

/** Placeholder directory for a write whose directory is unknown (never a real path). */
const UNKNOWN_DIR = '/\u0000unknown-directory';
const EXPANSION = /[$`*?[\]{}]/;

/**
 * The protected-path match of a write whose target could not be resolved (`cd ~ && echo x >> .bashrc`,
 * `cd "$D"; cp k authorized_keys`): the directory is unknown, but a static file name that is
 * protected in every directory (`.bashrc`, `authorized_keys`, `.env`, anything under `.ssh/`) is
 * protected wherever it lands — so the write is denied rather than merely asked (red-team finding:
 * nested scripts that `cd` first lost the deny).
 */
function protectedUnknownTarget(target: string) {
  const clean = target.replace(/^["']|["']$/g, '');
  const candidate = EXPANSION.test(clean) ? (clean.split('/').pop() ?? '') : clean;
  if (!candidate || EXPANSION.test(candidate)) return undefined;
  const m = matchProtectedWrite(path.posix.resolve(UNKNOWN_DIR, candidate));
  return m?.kind === 'protected' ? m : undefined;
}

/** Step 3: protected writes (deny), config writes and critical removals (ask). */
const subcommandOf = (view: CallView, e: Effect) =>
  e.subcommand === undefined ? undefined : view.subcommands[e.subcommand];

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
      isCriticalRemovalTarget(f.resolved, input.home, input.workingDirs.dirs) &&
      // A filtered removal in a working directory (`find . -name '*.pyc' -delete`) removes files
      // below it, not the directory: an ordinary edit of the project.
      !(
        (input.workingDirs.dirs.includes(f.resolved) || input.workingDirs.resolved.includes(f.resolved)) &&
        deleteScope(subcommandOf(view, f.effect), f.effect) === 'filtered'
      )
    )
      configHit = ask({
        type: 'check',
        checkId: 'CRITICAL_PATH_REMOVAL',
        path: f.resolved,
        effect: f.effect,
        message: `Needs approval: ${describeEffect(f.effect)} removes a critical path (${f.resolved}); asked in every mode.`,
      });
  }
  for (const e of view.description.effects) {
    if (e.certainty !== 'unknown' || (e.kind !== 'write' && e.kind !== 'delete')) continue;
    const m = protectedUnknownTarget(e.target);
    if (m)
      return deny({
        type: 'protected-path',
        path: e.target,
        effect: e,
        message: `Blocked: ${describeEffect(e)} writes a file named like a protected path (${m.label}) in a directory that cannot be determined; protected files are never written, in any mode.`,
      });
  }
  return configHit;
}

/**
 * Step 3: a path field of the tool's input (its trait's primary fields: `file_path`, `notebook_path`,
 * `path`) holding a NUL byte (deny) or a control character (ask), whichever describer produced the
 * effects (core/path-characters.ts): the file the filesystem would open is not the one judged.
 */
export function pathCharacterStep(view: CallView): PermissionDecision | undefined {
  for (const field of view.traits.primaryFields) {
    if (!/path$/i.test(field)) continue;
    const value = getOwn(view.input, field);
    if (typeof value !== 'string') continue;
    const f = pathCharacterFindings(value, field)[0];
    if (!f) continue;
    const reason: DecisionReason = {
      type: 'check',
      checkId: f.id,
      message: `${f.behavior === 'deny' ? 'Blocked' : 'Needs approval in every mode'}: ${f.message} [${f.id}].`,
    };
    return f.behavior === 'deny' ? deny(reason) : ask(reason);
  }
  return undefined;
}

/** Ask-level findings that hold in every mode (bypassPermissions and a hook allow included). */
const EVERY_MODE_FINDINGS: ReadonlySet<string> = new Set([PATH_CONTROL_CHARACTER]);

/** Step 3: an ask-level finding that no mode skips (a file path with control characters). */
export function everyModeFinding(view: CallView): DecisionReason | undefined {
  // `everyMode` marks findings such as an analysis that stopped early (docs/analysis-budget.md).
  const f = view.description.findings.find(
    (x) => x.behavior === 'ask' && (EVERY_MODE_FINDINGS.has(x.id) || x.everyMode === true),
  );
  return f
    ? { type: 'check', checkId: f.id, message: `Needs approval in every mode: ${f.message} [${f.id}].` }
    : undefined;
}

/** Expansion characters: an unknown target spelled with them may be any file (`$F`, `*`, `#1`). */
const OPEN_TARGET = /[$`*?[{<#]/;

/**
 * An unknown effect that an allow rule for its own sub-command answers: the program's inherent
 * behaviour in a described place (`npm install` writing the dependencies, `npx` downloading), not an
 * option that names a program or a target (those come with source `flag`, `redirect` or
 * `interpreter`, or an expansion in the target) and never an unknown execution.
 */
function coveredByAllow(view: CallView, input: PipelineInput, e: Effect): boolean {
  if (e.kind === 'exec' || e.source !== 'argument' || OPEN_TARGET.test(e.target)) return false;
  const sub = e.subcommand !== undefined ? view.subcommands[e.subcommand] : undefined;
  return (
    sub !== undefined && matchShellAllow(input.rules, view.toolName, sub, input.mode === 'auto') !== undefined
  );
}

/** Step 4: findings, unknown effects, file effects outside the working directories. */
export function checksStep(view: CallView, input: PipelineInput): DecisionReason | undefined {
  // Environment dumps and secret variables are decided by the credential step (pipeline-floor.ts).
  for (const finding of view.description.findings)
    if (finding.behavior === 'ask' && !SECRET_FINDING_IDS.has(finding.id)) {
      const sub = finding.subcommand !== undefined ? view.subcommands[finding.subcommand] : undefined;
      return {
        type: 'check',
        checkId: finding.id,
        message: `Needs approval: ${finding.message} [${finding.id}]${sub ? ` in sub-command "${sub.text}"` : ''}.`,
      };
    }
  // git in another repository: its configuration can run programs (git-repository.ts).
  if (input.repositoryRoot && view.isShell) {
    const other = otherRepositoryReason(view.subcommands, input.workingDirs.dirs, input.repositoryRoot);
    if (other) return other;
  }
  // An unknown host matters only to WebFetch domain rules; without any, a network effect whose host
  // is unknown (`npx` may download, `curl $URL`) does not ask by itself: it already keeps the command
  // from being read-only, so only an allow rule for the program can let it through.
  const domainRules = input.rules.domainRules('deny').length + input.rules.domainRules('ask').length > 0;
  const firstUnknown = view.unknown.find(
    (e) => (e.kind !== 'network' || domainRules) && !coveredByAllow(view, input, e),
  );
  if (firstUnknown)
    return {
      type: 'unknown-effect',
      effect: firstUnknown,
      message: `Needs approval: the target of a ${firstUnknown.kind} (${firstUnknown.target}${firstUnknown.detail ? `, ${firstUnknown.detail}` : ''}) cannot be determined before it runs.`,
    };
  for (const f of view.files) {
    if (f.fromExec) continue;
    // An MCP server keeps to its own roots (Gantry answers roots/list with the working
    // directories); its schema-derived paths feed deny, ask and protected-path rules only, and the
    // call asks anyway unless a rule names the tool (docs/mcp-client.md).
    if (view.isMcp) continue;
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
 * An unknown effect that bypassPermissions and a hook allow must not run blind: unknown writes,
 * deletes and executions always (a protected file could be the target, the program could be
 * anything); unknown reads when Read deny/ask rules exist; unknown hosts when WebFetch domain rules
 * exist.
 */
export function hiddenRuleRisk(view: CallView, input: PipelineInput): DecisionReason | undefined {
  if (!view.unknown.length) return undefined;
  const rules = input.rules;
  const pathRules = rules.pathRules('deny').length + rules.pathRules('ask').length > 0;
  const domainRules = rules.domainRules('deny').length + rules.domainRules('ask').length > 0;
  const risky = view.unknown.find(
    (e) =>
      e.kind === 'write' ||
      e.kind === 'delete' ||
      e.kind === 'exec' ||
      (e.kind === 'read' && pathRules) ||
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
