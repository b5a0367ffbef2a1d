/**
 * `gantry log [--since 1h] [--decision deny|ask|allow] [--tool Bash] [--json] [--file F]`: the
 * recent decisions of the audit log (audit-log.ts) and a summary — counts by decision, the most
 * asked commands, every deny (docs/guard.md "Audit log").
 *
 * Reads the live file and its rotated generations oldest first, line by line (memory stays bounded
 * by the longest line). Lines that are not JSON are counted as `malformed`, never fatal.
 * Exit 0; 3 on a usage error (an unreadable `--since`, an unknown decision).
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { hookLogPath, logGenerations } from './audit-log.js';

export interface LogCliOptions {
  since?: string;
  decision?: string;
  tool?: string;
  json?: boolean;
  file?: string;
}

/** One audit line as `gantry log` reads it (all fields optional: old lines have fewer). */
export interface AuditEntry {
  time?: string;
  event?: string;
  tool?: string;
  decision?: string;
  reason?: string;
  check_id?: string;
  rule?: { text?: string; file?: string; line?: number };
  input?: { command?: string; file_path?: string; path?: string; pattern?: string; url?: string };
  [k: string]: unknown;
}

export interface LogSummary {
  entries: number;
  malformed: number;
  byDecision: Record<string, number>;
  topAsked: { what: string; count: number }[];
  denies: { time?: string; tool?: string; what: string; reason?: string }[];
}

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/** Milliseconds in an age such as `30m`, `1h`, `2d`; undefined when unreadable. */
export function parseAge(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(text.trim());
  return m ? Number(m[1]) * (UNITS[m[2] as string] as number) : undefined;
}

/** What a line acted on, for display: the command, else a path, pattern or URL, else the tool. */
export function entryTarget(e: AuditEntry): string {
  const i = e.input ?? {};
  return i.command ?? i.file_path ?? i.path ?? i.pattern ?? i.url ?? e.tool ?? e.event ?? '?';
}

/** Why, in short: the rule with its file and line, else the check id, else the reason text. */
export function entryWhy(e: AuditEntry): string {
  if (e.rule?.text)
    return `rule ${e.rule.text}${e.rule.file ? ` (${e.rule.file}${e.rule.line ? `:${e.rule.line}` : ''})` : ''}`;
  if (e.check_id) return `check ${e.check_id}`;
  return e.reason ?? '';
}

/** Reads, filters and summarises the log. */
export async function readLog(
  file: string,
  filter: { sinceMs?: number; decision?: string; tool?: string; now?: number },
  onEntry: (e: AuditEntry) => void,
): Promise<LogSummary> {
  const now = filter.now ?? Date.now();
  const summary: LogSummary = { entries: 0, malformed: 0, byDecision: {}, topAsked: [], denies: [] };
  const asked = new Map<string, number>();
  for (const gen of logGenerations(file).reverse()) {
    if (!existsSync(gen)) continue;
    const lines = createInterface({
      input: createReadStream(gen, 'utf8'),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (!line.trim()) continue;
      let e: AuditEntry;
      try {
        const v: unknown = JSON.parse(line);
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
        e = v as AuditEntry;
      } catch {
        summary.malformed++;
        continue;
      }
      if (filter.sinceMs !== undefined) {
        const t = Date.parse(e.time ?? '');
        if (!Number.isFinite(t) || now - t > filter.sinceMs) continue;
      }
      if (filter.decision && e.decision !== filter.decision) continue;
      if (filter.tool && e.tool !== filter.tool) continue;
      summary.entries++;
      if (e.decision) summary.byDecision[e.decision] = (summary.byDecision[e.decision] ?? 0) + 1;
      if (e.decision === 'ask') asked.set(entryTarget(e), (asked.get(entryTarget(e)) ?? 0) + 1);
      if (e.decision === 'deny')
        summary.denies.push({
          ...(e.time ? { time: e.time } : {}),
          ...(e.tool ? { tool: e.tool } : {}),
          what: entryTarget(e),
          reason: entryWhy(e),
        });
      onEntry(e);
    }
  }
  summary.topAsked = [...asked.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([what, count]) => ({ what, count }));
  return summary;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export async function runLog(
  o: LogCliOptions,
  out: (s: string) => void = (s) => process.stdout.write(s),
): Promise<number> {
  const sinceMs = parseAge(o.since ?? '24h');
  if (sinceMs === undefined) {
    process.stderr.write(`gantry log: --since takes an age such as 30m, 1h or 2d, got ${o.since}\n`);
    return 3;
  }
  if (o.decision && !['allow', 'ask', 'deny'].includes(o.decision)) {
    process.stderr.write(`gantry log: --decision is allow, ask or deny, got ${o.decision}\n`);
    return 3;
  }
  const file = o.file ?? hookLogPath(process.env);
  if (!file) {
    process.stderr.write('gantry log: logging is off (GANTRY_HOOK_LOG=off)\n');
    return 0;
  }
  const summary = await readLog(
    file,
    { sinceMs, ...(o.decision ? { decision: o.decision } : {}), ...(o.tool ? { tool: o.tool } : {}) },
    (e) => {
      if (o.json) out(`${JSON.stringify(e)}\n`);
      else if (e.decision)
        out(
          `${e.time ?? '-'}  ${e.decision.padEnd(5)}  ${(e.tool ?? '?').padEnd(10)}  ${oneLine(entryTarget(e), 70)}  — ${oneLine(entryWhy(e))}\n`,
        );
      else
        out(
          `${e.time ?? '-'}  ${(e.event ?? 'event').padEnd(5)}  ${(e.tool ?? '').padEnd(10)}  ${oneLine(entryTarget(e), 70)}\n`,
        );
    },
  );
  if (o.json) {
    out(`${JSON.stringify({ summary: { file, since: o.since ?? '24h', ...summary } })}\n`);
    return 0;
  }
  const counts = ['allow', 'ask', 'deny'].map((d) => `${summary.byDecision[d] ?? 0} ${d}`).join(', ');
  out(
    `\n${summary.entries} entries in ${file} (last ${o.since ?? '24h'}): ${counts}${summary.malformed ? `; ${summary.malformed} malformed lines` : ''}\n`,
  );
  if (summary.topAsked.length > 0) {
    out('Most asked:\n');
    for (const a of summary.topAsked) out(`  ${String(a.count).padStart(4)}  ${oneLine(a.what)}\n`);
  }
  if (summary.denies.length > 0) {
    out('Denied:\n');
    for (const d of summary.denies)
      out(`  ${d.time ?? '-'}  ${d.tool ?? '?'}  ${oneLine(d.what, 70)}  — ${oneLine(d.reason ?? '')}\n`);
  }
  return 0;
}
