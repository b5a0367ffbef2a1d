/**
 * Renders a guard decision for people (`gantry check`) and machines (`--json`): the decision and
 * why, the sub-commands, the checks that fired (by id), the effects and their paths, the rule that
 * matched with its file and line, the mode, and "always allow" suggestions.
 */
import type { DecisionReason, Effect, PermissionRule } from '../../core/index.js';
import type { LoadedSettings } from '../../permissions/index.js';
import type { GuardCheck } from './guard.js';

/** `Bash(rm:*)` (deny, /p/.claude/settings.json:7) */
export function ruleLabel(rule: PermissionRule): string {
  const where = rule.file ? `${rule.file}${rule.line ? `:${rule.line}` : ''}` : rule.source;
  return `${rule.text} (${rule.behavior}, ${where})`;
}

/** One line naming what decided: rule, check id, path, hook or mode. */
export function reasonLabel(reason: DecisionReason): string {
  const bits: string[] = [reason.type];
  if (reason.rule) bits.push(`rule ${ruleLabel(reason.rule)}`);
  if (reason.checkId) bits.push(`check ${reason.checkId}`);
  if (reason.path) bits.push(`path ${reason.path}`);
  if (reason.hook) bits.push(`hook ${reason.hook}`);
  if (reason.mode) bits.push(`mode ${reason.mode}`);
  return bits.join('; ');
}

function effectLine(e: Effect): string {
  const where = e.subcommand !== undefined ? ` [sub-command ${e.subcommand + 1}]` : '';
  const how = e.detail ? `${e.source}: ${e.detail}` : e.source;
  return `${e.kind.padEnd(7)} ${e.target}${e.certainty === 'unknown' ? ' (unknown)' : ''}  — ${how}${where}`;
}

/** Human-readable tree (ends with a newline). */
/** `standard (default)`, `strict (from /p/.claude/settings.json)`, plus the ignored lower values. */
function scalarLabel<T>(
  s: LoadedSettings['destructiveFloor'] | LoadedSettings['secretReads'] | undefined,
  fallback: T,
): string {
  if (!s) return String(fallback);
  const from = s.file ? `from ${s.file}` : 'default';
  const ignored = s.ignored.length ? `; ${s.ignored.join('; ')}` : '';
  return `${s.value} (${from}${ignored})`;
}

/** Human-readable tree (ends with a newline); with `settings`, also the floor, secret reads and broken files. */
export function formatCheck(r: GuardCheck, settings?: LoadedSettings): string {
  const d = r.detailed.decision;
  const out: string[] = [];
  const summary = r.description.summary || JSON.stringify(r.input);
  const head =
    summary === r.toolName || summary.startsWith(`${r.toolName} `) ? summary : `${r.toolName} ${summary}`;
  out.push(`${d.behavior.toUpperCase()}  ${head}`);
  out.push(`├─ reason: ${d.reason.message}`);
  out.push(`├─ decided by: ${reasonLabel(d.reason)} (step ${r.detailed.step})`);
  out.push(`├─ mode: ${r.detailed.mode}`);
  if (settings) {
    out.push(`├─ destructive floor: ${scalarLabel(settings.destructiveFloor, 'standard')}`);
    out.push(`├─ credential reads: ${scalarLabel(settings.secretReads, 'ask')}`);
    for (const b of settings.broken)
      out.push(`├─ broken settings: ${b.file}${b.line !== undefined ? `:${b.line}` : ''}: ${b.message}`);
  }
  const subs = r.description.subcommands ?? [];
  if (subs.length) {
    out.push(`├─ sub-commands (${subs.length}):`);
    subs.forEach((s, i) => {
      const ro = s.readOnly ? 'read-only' : `not read-only: ${s.readOnlyReason}`;
      const via = s.via && s.via !== 'top' ? ` via ${s.via}` : '';
      out.push(`│   ${i + 1}. ${s.text}${via}  — ${ro}`);
    });
  }
  if (r.description.findings.length) {
    out.push('├─ checks fired:');
    for (const f of r.description.findings) {
      const num = f.checkId !== undefined ? ` (#${f.checkId})` : '';
      const sub = f.subcommand !== undefined ? ` [sub-command ${f.subcommand + 1}]` : '';
      out.push(`│   - ${f.id}${num}: ${f.message}${sub}`);
    }
  }
  if (r.description.effects.length) {
    out.push('├─ effects:');
    for (const e of r.description.effects) out.push(`│   - ${effectLine(e)}`);
  }
  if (d.behavior === 'ask' && d.suggestions.length) {
    out.push('├─ to always allow:');
    for (const s of d.suggestions) out.push(`│   - ${s.rule}  → ${s.destination}`);
  }
  if (r.detailed.trace.length) {
    out.push('└─ trace:');
    for (const t of r.detailed.trace) out.push(`    · ${t}`);
  } else {
    out.push('└─ (no trace)');
  }
  return `${out.join('\n')}\n`;
}

/** The `--json` shape. */
export function toCheckJson(r: GuardCheck, settings: LoadedSettings): Record<string, unknown> {
  const d = r.detailed.decision;
  return {
    tool: r.toolName,
    input: r.input,
    decision: d.behavior,
    reason: d.reason,
    step: r.detailed.step,
    mode: r.detailed.mode,
    suggestions: d.behavior === 'ask' ? d.suggestions : [],
    subcommands: r.description.subcommands ?? [],
    findings: r.description.findings,
    effects: r.description.effects,
    trace: r.detailed.trace,
    settings: {
      files: settings.files,
      problems: settings.problems,
      broken: settings.broken,
      destructiveFloor: settings.destructiveFloor,
      secretReads: settings.secretReads,
      trust: settings.trust,
    },
  };
}
