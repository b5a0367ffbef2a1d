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
 * Sub-command cap: the first `FULL_ANALYSIS_LIMIT` (1000) sub-commands get read-only validation and
 * effects; past it the line gets a `SUBCOMMAND_CAP` finding (ask) and the remaining sub-commands are
 * still listed (so deny rules keep matching them), marked not read-only.
 *
 * Source: issue 4 "Shell analysis"; seed 000 §2.2 (lifecycle), security README "Decision order"
 * (cap: past it ask, never allow; a deny anywhere still wins; chains of 100 analysed in full).
 */
import type { Effect } from '../core/effects.js';
import type { EnvAssignment, Finding, SubcommandInfo } from '../core/permission-types.js';
import { programFindings } from './analyze-findings.js';
import { runSecurityChecks } from './checks/index.js';
import { computeEffects } from './effects/index.js';
import { initShellParser } from './parser.js';
import { checkReadOnly, redirectWritesFile } from './read-only/index.js';
import { no, type ReadOnlyVerdict } from './read-only/verdict.js';
import { parseAndSplit } from './split.js';
import type { AnalyzeOptions, CommandAnalysis, Redirect, SimpleCommand } from './types.js';

const writesThrough = (r: Redirect): boolean => r.op === '<>' || redirectWritesFile(r);

/** Sub-commands analysed in full (read-only + effects); the corpus expects 100 to be. */
export const FULL_ANALYSIS_LIMIT = 1000;

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
  if (p === 'hash') return cmd.argv.some((w) => w.text === '-p');
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
 * @param opts - `{cwd, home, resolver?}`: the world the command runs in.
 * @returns the analysis; never throws for any input (a parse failure is `parseOk: false` plus an
 *   `UNPARSEABLE_COMMAND` finding).
 * @throws Error only when the parser was not initialised (a programming error).
 */
export function analyzeCommand(command: string, opts: AnalyzeOptions): CommandAnalysis {
  const split = parseAndSplit(command);
  const commands = split.commands;
  const findings: Finding[] = runSecurityChecks(command, split);
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
    });
  }
  const seen = new Set(findings.map((f) => `${f.id}\u0000${f.subcommand ?? ''}`));
  for (let i = 0; i < limit; i++) {
    for (const f of programFindings(commands[i] as SimpleCommand, i)) {
      const key = `${f.id}\u0000${f.subcommand ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
  }
  const { effects, cwds, finalCwd } = computeEffects(commands, opts, limit, command);
  const subcommands: SubcommandInfo[] = [];
  let pathShadowed = false;
  const unsafeEffectAt = new Set<number>();
  for (const e of effects)
    if (disqualifiesReadOnly(e) && e.subcommand !== undefined) unsafeEffectAt.add(e.subcommand);
  for (const [i, cmd] of commands.entries()) {
    let verdict: ReadOnlyVerdict;
    let programReadOnly = false;
    if (i >= limit) verdict = no('past the sub-command analysis limit');
    else {
      verdict = checkReadOnly(cmd, { pathShadowed });
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
    if (cmd.connector) info.connector = cmd.connector;
    if (cmd.inFunction !== undefined) info.inFunction = cmd.inFunction;
    if (cmd.background) info.background = true;
    if (programReadOnly) info.readOnlyProgram = true;
    subcommands.push(info);
  }
  const readOnly =
    split.ok &&
    findings.length === 0 &&
    subcommands.every((s) => s.readOnly) &&
    !effects.some(disqualifiesReadOnly);
  const analysis: CommandAnalysis = {
    command,
    parseOk: split.ok,
    problems: split.problems,
    subcommands,
    findings,
    effects,
    readOnly,
  };
  if (finalCwd !== undefined) analysis.finalCwd = finalCwd;
  return analysis;
}

/** `initShellParser()` then `analyzeCommand`. */
export async function analyzeCommandAsync(command: string, opts: AnalyzeOptions): Promise<CommandAnalysis> {
  await initShellParser();
  return analyzeCommand(command, opts);
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
