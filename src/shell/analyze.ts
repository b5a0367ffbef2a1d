/**
 * The shell-analysis facade: one Bash command line → `CommandAnalysis` (what the permission engine
 * and the Bash tool need).
 *
 * Sequence: parse + split (split.ts) → security checks (checks/) → findings of this room's program
 * analyses (analyze-findings.ts, deduplicated per sub-command and id) → read-only validation per
 * sub-command (read-only/; a PATH change earlier in the line makes later program names untrusted)
 * → effects with cd tracking (effects/) → `SubcommandInfo[]` → `readOnly` = parse ok, every
 * sub-command read-only, no finding, and no write/delete/network/unknown effect.
 *
 * Sub-command cap: the first `FULL_ANALYSIS_LIMIT` (256) sub-commands get read-only validation and
 * effects; past it the line gets a `SUBCOMMAND_CAP` finding (ask, in every mode) and the remaining sub-commands are
 * still listed (so deny rules keep matching them), marked not read-only.
 *
 * Budget (budget.ts, docs/analysis-budget.md): the whole analysis runs within a deadline
 * (`opts.deadlineMs`, default 1000 ms) and the parser within its work budget. When either stops the
 * work early, what was analysed is kept (deny rules and protected paths still match it) and an
 * `ANALYSIS_DEADLINE` or `ANALYSIS_BUDGET` finding asks in every mode (`everyMode`): the rest of
 * the command was never looked at, so no mode may allow it.
 *
 * Source:  docs/architecture.md (lifecycle), docs/security-round-2.md
 * (cap: past it ask, never allow; a deny anywhere still wins; chains of 100 analysed in full).
 */
import type { Effect } from '../core/effects.js';
import type { EnvAssignment, Finding, SubcommandInfo } from '../core/permission-types.js';
import { fsPathResolver } from '../core/paths.js';
import { programFindings } from './analyze-findings.js';
import { AnalysisBudget, defaultDeadlineMs, withBudget } from './budget.js';
import { runSecurityChecks } from './checks/index.js';
import { hashBindsName } from './checks/shell-state.js';
import { computeEffects } from './effects/index.js';
import { bindLoopVariables, findLoops } from './effects/loop-vars.js';
import { withShellParser } from './parser.js';
import { checkReadOnly, redirectWritesFile } from './read-only/index.js';
import { no, type ReadOnlyVerdict } from './read-only/verdict.js';
import { cachingResolver } from './resolver-cache.js';
import { parseAndSplit } from './split.js';
import type { AnalyzeOptions, CommandAnalysis, Redirect, SimpleCommand } from './types.js';

const writesThrough = (r: Redirect): boolean => r.op === '<>' || redirectWritesFile(r);

/**
 * Sub-commands analysed in full (read-only + effects); the corpus expects 100 to be. Each costs
 * 10–100 µs (options, path resolution through the filesystem), so 256 keeps a 64 KiB line of
 * thousands of sub-commands within the analysis time budget (docs/analysis-budget.md); past it the
 * line asks, and every sub-command is still listed for deny rules.
 */
export const FULL_ANALYSIS_LIMIT = 256;

/** True when an effect stops a command from being read-only. */
export function disqualifiesReadOnly(e: Effect): boolean {
  return e.kind === 'write' || e.kind === 'delete' || e.kind === 'network' || e.certainty === 'unknown';
}

const PATH_SETTERS = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);

/** True when this command changes PATH (or command lookup) for the commands after it. */
function shadowsPath(cmd: SimpleCommand): boolean {
  if (cmd.argv.length === 0) return cmd.assignments.some((a) => a.name === 'PATH');
  const p = cmd.argv[0]?.text ?? '';
  if (PATH_SETTERS.has(p)) return cmd.argv.slice(1).some((w) => /^PATH(\+?=|$)/.test(w.text));
  if (p === 'hash') return hashBindsName(cmd.argv);
  if (p === 'enable') return true;
  return false;
}

function ruleText(cmd: SimpleCommand): string {
  if (cmd.argv.length > 0) return cmd.argv.map((w) => w.text).join(' ');
  return cmd.assignments.map((a: EnvAssignment) => `${a.name}=${a.value}`).join(' ');
}

/**
 * Analyses one Bash command line. Synchronous: call `await initShellParser()` once before (or use
 * `analyzeCommandAsync`).
 * @param command - the command exactly as the model sent it.
 * @param opts - `{cwd, home, resolver?, deadlineMs?}`: the world the command runs in, and the
 *   analysis deadline in ms (default: `GANTRY_ANALYSIS_DEADLINE_MS`, the configured one, or 1000).
 * @returns the analysis; never throws for any input (a parse failure is `parseOk: false` plus an
 *   `UNPARSEABLE_COMMAND` finding; work stopped by the budget adds an every-mode ask finding).
 * @throws Error only when the parser was not initialised (a programming error).
 */
export function analyzeCommand(command: string, opts: AnalyzeOptions): CommandAnalysis {
  return analyzeWithBudget(command, opts, new AnalysisBudget(opts.deadlineMs ?? defaultDeadlineMs()));
}

/**
 * `analyzeCommand` within a budget the caller made (and can read afterwards: why it stopped, the
 * peak work of its parses). `opts.deadlineMs` is ignored: the budget carries its deadline.
 */
export function analyzeWithBudget(
  command: string,
  opts: AnalyzeOptions,
  budget: AnalysisBudget,
): CommandAnalysis {
  const resolver = cachingResolver(opts.resolver ?? fsPathResolver);
  return withBudget(budget, () => analyzeWithin(command, { ...opts, resolver }, budget));
}

/** The finding of an analysis its budget stopped early (asks in every mode). */
export function budgetFinding(budget: AnalysisBudget): Finding | undefined {
  const stop = budget.stop;
  if (!stop) return undefined;
  return {
    id: stop.kind === 'deadline' ? 'ANALYSIS_DEADLINE' : 'ANALYSIS_BUDGET',
    message:
      stop.kind === 'deadline'
        ? `The ${stop.message}; the part not analysed could do anything, so it cannot be proven safe.`
        : `The analysis stopped early (${stop.message}); the part not analysed could do anything, so it cannot be proven safe.`,
    behavior: 'ask',
    everyMode: true,
  };
}

function analyzeWithin(command: string, opts: AnalyzeOptions, budget: AnalysisBudget): CommandAnalysis {
  const split = parseAndSplit(command);
  const commands = split.commands;
  // Offsets of the split refer to the line as bash reads it (continuations joined).
  const source = split.source ?? command;
  const findings: Finding[] = runSecurityChecks(source, split);
  if (!split.ok) {
    findings.push({
      id: 'UNPARSEABLE_COMMAND',
      message: `The command cannot be fully parsed (${split.problems.join('; ')}); it cannot be proven safe.`,
      behavior: 'ask',
    });
  }
  const limit = Math.min(commands.length, FULL_ANALYSIS_LIMIT);
  if (commands.length > FULL_ANALYSIS_LIMIT) {
    findings.push({
      id: 'SUBCOMMAND_CAP',
      message: `The command has ${commands.length} sub-commands; only the first ${FULL_ANALYSIS_LIMIT} are analysed in full, so it cannot be proven safe.`,
      behavior: 'ask',
      // Every mode: the sub-commands past the limit have no effects, so neither the destructive
      // floor nor the protected paths see them; bypassPermissions must not allow them unseen.
      everyMode: true,
    });
  }
  const seen = new Set(findings.map((f) => `${f.id}\u0000${f.subcommand ?? ''}`));
  for (let i = 0; i < limit && !((i & 63) === 0 && budget.expired()); i++) {
    for (const f of programFindings(commands[i] as SimpleCommand, i)) {
      const key = `${f.id}\u0000${f.subcommand ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
  }
  const { effects, cwds, finalCwd, gitRepositories } = computeEffects(commands, opts, limit, source);
  const subcommands: SubcommandInfo[] = [];
  const loops = findLoops(source);
  let pathShadowed = false;
  const unsafeEffectAt = new Set<number>();
  // Commands launched by one `find -exec …` (or another launcher) share the launcher's word list,
  // and the verdict depends only on that list: judged once per list, not once per clause (a find
  // with thousands of -exec clauses was quadratic).
  const verdicts = new Map<readonly unknown[], ReadOnlyVerdict>();
  const readOnlyOf = (cmd: SimpleCommand, shadowed: boolean): ReadOnlyVerdict => {
    if (shadowed || cmd.assignments.length || cmd.redirects.length || cmd.fullArgv.length === 0)
      return checkReadOnly(cmd, { pathShadowed: shadowed });
    let v = verdicts.get(cmd.fullArgv);
    if (!v) {
      v = checkReadOnly(cmd, { pathShadowed: false });
      verdicts.set(cmd.fullArgv, v);
    }
    return v;
  };
  for (const e of effects)
    if (disqualifiesReadOnly(e) && e.subcommand !== undefined) unsafeEffectAt.add(e.subcommand);
  for (const [i, cmd] of commands.entries()) {
    let verdict: ReadOnlyVerdict;
    let programReadOnly = false;
    if (i >= limit) verdict = no('past the sub-command analysis limit');
    else if (budget.stop?.kind === 'deadline' || ((i & 63) === 0 && budget.expired()))
      verdict = no('the analysis stopped before reaching it');
    else {
      // A for-loop variable bound to its static word list reads like those words (loop-vars.ts).
      verdict = readOnlyOf(bindLoopVariables(cmd, loops), pathShadowed);
      if (verdict.readOnly && unsafeEffectAt.has(i)) {
        programReadOnly = true;
        verdict = no(
          'it writes, deletes, contacts the network or has an effect that cannot be resolved statically',
        );
      } else if (!verdict.readOnly && cmd.redirects.some(writesThrough)) {
        // Read-only apart from its output redirections (`echo x > notes.txt`): an edit, for acceptEdits.
        const bare = { ...cmd, redirects: cmd.redirects.filter((r) => !writesThrough(r)) };
        programReadOnly = checkReadOnly(bare, { pathShadowed }).readOnly;
      }
    }
    if (shadowsPath(cmd)) pathShadowed = true;
    const info: SubcommandInfo = {
      text: ruleText(cmd),
      rawText: cmd.raw,
      argv: cmd.argv.map((w) => w.text),
      program: cmd.argv[0]?.text ?? '',
      wrappers: [...cmd.wrappers],
      envAssignments: cmd.assignments.map((a) => ({ name: a.name, value: a.value, dangerous: a.dangerous })),
      readOnly: verdict.readOnly,
      readOnlyReason: verdict.reason,
      dynamicProgram: Boolean(cmd.argv[0]?.dynamic),
      via: cmd.via,
    };
    const cwd = cwds[i];
    if (cwd !== undefined) info.cwd = cwd;
    const repository = gitRepositories.get(i);
    if (repository) info.gitRepository = repository;
    if (cmd.connector) info.connector = cmd.connector;
    if (cmd.inFunction !== undefined) info.inFunction = cmd.inFunction;
    if (cmd.background) info.background = true;
    if (programReadOnly) info.readOnlyProgram = true;
    subcommands.push(info);
  }
  const stopped = budgetFinding(budget);
  if (stopped) {
    findings.push(stopped);
    const message = budget.stop?.message as string;
    if (!split.problems.includes(message)) split.problems.push(message);
  }
  const ok = split.ok && !stopped;
  const readOnly =
    ok &&
    findings.length === 0 &&
    subcommands.every((s) => s.readOnly) &&
    !effects.some(disqualifiesReadOnly);
  const analysis: CommandAnalysis = {
    command,
    parseOk: ok,
    problems: split.problems,
    subcommands,
    findings,
    effects,
    readOnly,
  };
  if (finalCwd !== undefined) analysis.finalCwd = finalCwd;
  return analysis;
}

/** `analyzeCommand` with the grammar loaded when the line needs it (parser.ts `withShellParser`). */
export async function analyzeCommandAsync(command: string, opts: AnalyzeOptions): Promise<CommandAnalysis> {
  return withShellParser(command, () => analyzeCommand(command, opts));
}

/**
 * True when the whole command is proven read-only (every sub-command allowlisted with read-only
 * options, no finding, no write/delete/network/unknown effect). Path constraints (reads outside the
 * working directories) are NOT part of this; the permission engine checks the effects.
 * Synchronous: requires `initShellParser()` first.
 */
export function isReadOnlyCommand(command: string, opts: AnalyzeOptions): boolean {
  return analyzeCommand(command, opts).readOnly;
}
