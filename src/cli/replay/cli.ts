/**
 * The `gantry replay` command line: prints a line per call and a summary, or JSON lines (`--json`).
 *
 *   gantry replay <transcript.jsonl|dir>… [--settings FILE]… [--mode MODE] [--json]
 *                 [--execute --workspace DIR] [--max-line-bytes N]
 *
 * With no file argument it reads `~/.claude/projects/` (the user's own Claude Code sessions).
 * Exit code: 0 when the replay ran (whatever the decisions), 3 on usage errors. Files with no
 * tool call and lines that are not JSON objects get one line on stderr asking whether they are
 * transcripts.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { PERMISSION_MODES, type PermissionMode } from '../../core/index.js';
import { createGuard, explicitSettingsErrors, type GuardOptions } from '../shared/guard.js';
import { ReplayExecutor } from './execute.js';
import { type ReplayRow, type ReplaySummary, replayFiles } from './replay.js';
import { formatSuggestions, type Suggestions, suggestRules, verifySuggestions } from './suggest.js';
import { listTranscriptFiles } from './transcript-reader.js';

export interface ReplayCliOptions {
  settings?: string[];
  mode?: string;
  json?: boolean;
  execute?: boolean;
  workspace?: string;
  /** Print only the suggested allow rules (verified by a second replay with them). */
  suggest?: boolean;
  /** Longest transcript line read (bytes); longer lines are skipped and counted as malformed. */
  maxLineBytes?: string;
  /** Tests: where the default sessions live and other guard overrides. */
  home?: string;
  guard?: Partial<GuardOptions>;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

function row(r: ReplayRow): string {
  const flag = r.disagreement ? ' !' : '';
  return `[${r.decision.toUpperCase().padEnd(5)}] ${r.toolName}: ${r.summary} — ${r.reason} | original: ${r.call.outcome}${flag}`;
}

/** The human summary block. */
export function formatSummary(s: ReplaySummary): string {
  const lines: string[] = [];
  const { stats } = s;
  lines.push(
    `Replayed ${s.rows} calls from ${stats.files} file(s) (${stats.malformedLines} malformed line(s) skipped${stats.oversizedLines ? `, ${stats.oversizedLines} of them over the size limit` : ''}, ${stats.callsWithoutResult} call(s) without a recorded result${s.errors ? `, ${s.errors} internal error(s)` : ''})`,
  );
  lines.push(`By decision: allow ${s.byDecision.allow}, ask ${s.byDecision.ask}, deny ${s.byDecision.deny}`);
  lines.push(
    `Original outcomes: ${Object.entries(s.byOutcome)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  lines.push('By tool:');
  for (const [tool, c] of Object.entries(s.byTool).sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push(`  ${tool.padEnd(24)} allow ${c.allow}  ask ${c.ask}  deny ${c.deny}`);
  }
  const list = (title: string, rows: ReplayRow[]): void => {
    lines.push(`${title} (${rows.length}):`);
    for (const r of rows.slice(0, 20)) lines.push(`  - ${r.toolName}: ${r.summary} — ${r.reason}`);
    if (rows.length > 20) lines.push(`  … ${rows.length - 20} more (use --json for all)`);
  };
  lines.push('Disagreements that matter:');
  list('  Gantry would ALLOW what the original user denied', s.disagreements.allowVsUserDenied);
  list('  Gantry would DENY what ran fine', s.disagreements.denyVsRanFine);
  return `${lines.join('\n')}\n`;
}

/** Runs the replay; returns the exit code. */
export async function runReplay(paths: string[], o: ReplayCliOptions = {}): Promise<number> {
  const out = o.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = o.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  if (o.mode && !PERMISSION_MODES.includes(o.mode as PermissionMode)) {
    err(`gantry replay: unknown --mode ${o.mode}`);
    return 3;
  }
  const maxLineBytes = o.maxLineBytes === undefined ? undefined : Number(o.maxLineBytes);
  if (maxLineBytes !== undefined && !(Number.isInteger(maxLineBytes) && maxLineBytes > 0)) {
    err('gantry replay: --max-line-bytes must be a positive integer');
    return 3;
  }
  if (o.execute && !o.workspace) {
    err('gantry replay: --execute needs --workspace DIR (calls never run against the recorded paths)');
    return 3;
  }
  let inputs = paths;
  if (!inputs.length) {
    const dir = path.join(o.home ?? homedir(), '.claude', 'projects');
    if (!existsSync(dir)) {
      err(
        `gantry replay: no files given and ${dir} does not exist (no Claude Code sessions on this machine)`,
      );
      return 3;
    }
    inputs = [dir];
  }
  for (const p of inputs) {
    if (!existsSync(p)) {
      err(`gantry replay: ${p} does not exist`);
      return 3;
    }
  }
  if (o.settings?.length) {
    const probe = createGuard({
      cwd: process.cwd(),
      settingsFiles: o.settings,
      ...(o.home ? { home: o.home } : {}),
      ...o.guard,
    });
    const broken = explicitSettingsErrors(probe.settings, o.settings);
    if (broken.length) {
      for (const p of broken) err(`gantry replay: ${p.file}: ${p.message}`);
      return 3;
    }
  }
  const files = await listTranscriptFiles(inputs);
  if (!files.length) {
    err(`gantry replay: no transcript files (*.jsonl) found in ${inputs.join(', ')}`);
    return 3;
  }
  const guard = { ...(o.home ? { home: o.home } : {}), ...o.guard };
  const executor =
    o.execute && o.workspace ? new ReplayExecutor(path.resolve(o.workspace), guard) : undefined;
  let lastFile = '';
  const rows: ReplayRow[] = [];
  const summary = await replayFiles(files, {
    ...(o.settings ? { settingsFiles: o.settings } : {}),
    ...(o.mode ? { mode: o.mode as PermissionMode } : {}),
    ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
    guard,
    onCall: async (r) => {
      rows.push(r);
      if (o.suggest) return;
      const ran = executor ? await executor.maybeExecute(r) : false;
      const result = ran ? executor?.report.results.at(-1) : undefined;
      if (o.json) {
        out(
          JSON.stringify({
            file: r.call.file,
            line: r.call.line,
            tool_use_id: r.call.toolUseId,
            tool: r.toolName,
            summary: r.summary,
            decision: r.decision,
            reason: r.reason,
            ...(r.reasonType ? { reason_type: r.reasonType } : {}),
            ...(r.step ? { step: r.step } : {}),
            ...(r.checkId ? { check_id: r.checkId } : {}),
            mode: r.mode,
            original: r.call.outcome,
            ...(r.disagreement ? { disagreement: r.disagreement } : {}),
            ...(result ? { executed: { is_error: result.isError, text: result.text } } : {}),
          }),
        );
        return;
      }
      if (r.call.file !== lastFile) {
        lastFile = r.call.file;
        out(`── ${r.call.file}`);
      }
      out(`  ${row(r)}`);
      if (result) out(`      executed in workspace: ${result.isError ? `tool error: ${result.text}` : 'ok'}`);
    },
  });
  if (summary.rows === 0 && summary.stats.malformedLines > 0)
    err(
      `gantry replay: no tool calls found, and ${summary.stats.malformedLines} line(s) were not JSON objects: is this a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl)?`,
    );
  const suggestions = await suggestAndVerify(files, rows, {
    ...(o.settings ? { settingsFiles: o.settings } : {}),
    ...(o.mode ? { mode: o.mode as PermissionMode } : {}),
    ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
    guard,
  });
  if (o.suggest) {
    out(formatSuggestions(suggestions, summary.asksByReason).trimEnd());
    return 0;
  }
  if (o.json) {
    out(
      JSON.stringify({
        summary: {
          calls: summary.rows,
          files: summary.stats.files,
          malformedLines: summary.stats.malformedLines,
          oversizedLines: summary.stats.oversizedLines,
          callsWithoutResult: summary.stats.callsWithoutResult,
          byDecision: summary.byDecision,
          byTool: summary.byTool,
          byOutcome: summary.byOutcome,
          allowVsUserDenied: summary.disagreements.allowVsUserDenied.length,
          denyVsRanFine: summary.disagreements.denyVsRanFine.length,
          asksByReason: summary.asksByReason,
          suggestions: {
            rules: suggestions.rules,
            dropped: suggestions.dropped,
            asksAfter: suggestions.asksAfter,
          },
          ...(executor ? { execution: { ...executor.report, results: undefined } } : {}),
        },
      }),
    );
  } else {
    out('');
    out(formatSummary(summary).trimEnd());
    out(formatSuggestions(suggestions, summary.asksByReason).trimEnd());
    if (executor) {
      const x = executor.report;
      out(
        `Executed in ${o.workspace}: ${x.executed} call(s), ${x.toolErrors} tool error(s), ${x.skipped} not executed (not allowed, not read-only, or outside the workspace)`,
      );
    }
  }
  return 0;
}

/**
 * Suggests rules over the replayed rows, then replays again with them in a temporary settings
 * file to verify (suggest.ts step 4); a second verification runs when a rule was dropped.
 */
async function suggestAndVerify(
  files: string[],
  before: ReplayRow[],
  opts: Omit<NonNullable<Parameters<typeof replayFiles>[1]>, 'onCall'>,
): Promise<Suggestions> {
  let s = suggestRules(before);
  const dir = mkdtempSync(path.join(tmpdir(), 'gantry-suggest-'));
  try {
    for (let round = 0; round < 3 && s.rules.length > 0; round++) {
      const file = path.join(dir, `round-${round}.json`);
      writeFileSync(file, JSON.stringify({ permissions: { allow: s.rules.map((r) => r.rule) } }));
      const after: ReplayRow[] = [];
      await replayFiles(files, {
        ...opts,
        settingsFiles: [...(opts.settingsFiles ?? []), file],
        onCall: (r) => {
          after.push(r);
        },
      });
      const verified = verifySuggestions(s, before, after, (r) => r.ruleText);
      const dropped = [...s.dropped, ...verified.dropped];
      s = { ...verified, dropped };
      if (verified.dropped.length === 0) break;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return s;
}
