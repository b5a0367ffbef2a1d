/**
 * `gantry replay`: runs a recorded session's tool calls through the permission engine (dry run) and
 * compares Gantry's decision with what happened in the original session (docs/architecture.md).
 *
 * - Sources: Claude Code transcripts (incl. sub-agent files and the stream-json variant) and the
 *   normalised one-call-per-line shape (transcript-reader.ts). Malformed lines are counted, never fatal.
 * - Project root of a file = the cwd of its first call; each call is decided in its own recorded cwd.
 * - Windows paths (`C:\Users\u`) are mapped to POSIX form (`/c/Users/u`) for deciding.
 * - The disagreements that matter most: Gantry would allow what the original user denied, and
 *   Gantry would deny what ran fine.
 */
import type { PermissionBehavior, PermissionMode } from '../../core/index.js';
import { createGuard, type Guard, type GuardOptions } from '../shared/guard.js';
import { newReadStats, type ReadStats, type RecordedCall, readRecordedCalls } from './transcript-reader.js';

export interface ReplayOptions {
  settingsFiles?: string[];
  /** Overrides the recorded permission mode. */
  mode?: PermissionMode;
  /** Extra guard options (tests: home, managed files). */
  guard?: Partial<GuardOptions>;
  /** Longest transcript line read, bytes (default 64 MiB); longer lines count as malformed. */
  maxLineBytes?: number;
  /** Called for every decided call, in order. */
  onCall?: (row: ReplayRow) => void | Promise<void>;
}

export interface ReplayRow {
  call: RecordedCall;
  /** Tool and input as decided (Windows paths mapped). */
  toolName: string;
  summary: string;
  decision: PermissionBehavior;
  reason: string;
  mode: PermissionMode;
  /** The analysis proved the call read-only. */
  readOnly: boolean;
  /** Project root the call was decided under (POSIX form). */
  projectRoot: string;
  /** Working directory of the call (POSIX form). */
  cwd: string;
  /** The input as decided (Windows paths mapped). */
  input: Record<string, unknown>;
  /** The decision disagrees with the original outcome in a way that matters. */
  disagreement?: 'allow-vs-user-denied' | 'deny-vs-ran-fine';
  /** What decided (the reason's type), the pipeline step and the check id, when known. */
  reasonType?: string;
  step?: string;
  checkId?: string;
  /** For an ask: the engine's narrow "always allow" rules for this call. */
  suggestions?: string[];
  /** The rule that decided, as written. */
  ruleText?: string;
}

export interface ReplaySummary {
  stats: ReadStats;
  rows: number;
  byTool: Record<string, Record<PermissionBehavior, number>>;
  byDecision: Record<PermissionBehavior, number>;
  byOutcome: Record<string, number>;
  /** Calls whose decision failed with an internal error (counted as ask). */
  errors: number;
  disagreements: { allowVsUserDenied: ReplayRow[]; denyVsRanFine: ReplayRow[] };
  /** Asks counted by what caused them (the reason's type: `default`, `check`, `working-directory`, …). */
  asksByReason: Record<string, number>;
}

const WIN_PATH = /^([A-Za-z]):[\\/]/;

/** `C:\Users\u\x` → `/c/Users/u/x` (Git Bash form); other strings unchanged. */
export function toPosixPath(p: string): string {
  const m = WIN_PATH.exec(p);
  if (!m) return p;
  return `/${(m[1] as string).toLowerCase()}/${p.slice(3).replace(/\\/g, '/')}`;
}

const PATH_FIELDS = ['file_path', 'path', 'notebook_path'];

/**
 * The recorded user's home, inferred from a recorded cwd (`/home/u/…`, `/Users/u/…`, `/c/Users/u/…`,
 * `/root/…`), so `~` in replayed calls means that home, not the replaying user's. Undefined when the
 * cwd says nothing (then the replaying user's home is used).
 */
export function inferHome(cwd: string): string | undefined {
  const m = /^(\/home\/[^/]+|\/Users\/[^/]+|\/[a-z]\/Users\/[^/]+|\/root)(\/|$)/.exec(cwd);
  return m?.[1];
}

function mapInput(input: Record<string, unknown>): Record<string, unknown> {
  let out = input;
  for (const f of PATH_FIELDS) {
    const v = input[f];
    if (typeof v === 'string' && WIN_PATH.test(v)) out = { ...out, [f]: toPosixPath(v) };
  }
  return out;
}

/** One-line summary of a call's input (≤ 100 chars). */
export function summarizeInput(tool: string, input: Record<string, unknown>): string {
  const pick =
    input.command ??
    input.file_path ??
    input.notebook_path ??
    input.pattern ??
    input.url ??
    input.query ??
    input.prompt;
  const text = typeof pick === 'string' ? pick : JSON.stringify(input);
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 100 ? `${one.slice(0, 97)}...` : one || tool;
}

const MODES: readonly string[] = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'auto'];

/** Replays the given files (see module doc). */
export async function replayFiles(
  files: readonly string[],
  opts: ReplayOptions = {},
): Promise<ReplaySummary> {
  const stats = newReadStats();
  const summary: ReplaySummary = {
    stats,
    rows: 0,
    byTool: {},
    byDecision: { allow: 0, ask: 0, deny: 0 },
    byOutcome: {},
    errors: 0,
    disagreements: { allowVsUserDenied: [], denyVsRanFine: [] },
    asksByReason: {},
  };
  const guards = new Map<string, Guard>();
  const guardFor = (projectRoot: string): Guard => {
    let g = guards.get(projectRoot);
    if (!g) {
      const home = inferHome(projectRoot);
      g = createGuard({
        cwd: projectRoot,
        ...(home ? { home } : {}),
        ...(opts.settingsFiles ? { settingsFiles: opts.settingsFiles } : {}),
        ...opts.guard,
      });
      guards.set(projectRoot, g);
    }
    return g;
  };
  for (const file of files) {
    const calls = await readRecordedCalls(
      file,
      stats,
      opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {},
    );
    const roots = new Map<string, string>();
    for (const call of calls) {
      const cwd = toPosixPath(call.cwd || '/');
      const sessionKey = call.session || file;
      if (!roots.has(sessionKey)) roots.set(sessionKey, cwd);
      const projectRoot = roots.get(sessionKey) as string;
      const input = mapInput(call.input);
      const recordedMode = MODES.includes(call.permissionMode ?? '')
        ? (call.permissionMode as PermissionMode)
        : 'default';
      const mode = opts.mode ?? recordedMode;
      let decision: PermissionBehavior = 'ask';
      let reason: string;
      let readOnly = false;
      let why: Pick<ReplayRow, 'reasonType' | 'step' | 'checkId' | 'suggestions' | 'ruleText'> = {
        reasonType: 'error',
      };
      try {
        const r = await guardFor(projectRoot).check(call.tool, input, {
          cwd,
          mode,
          toolUseId: call.toolUseId,
        });
        decision = r.detailed.decision.behavior;
        reason = r.detailed.decision.reason.message;
        readOnly = r.description.readOnly;
        const d = r.detailed.decision;
        why = {
          reasonType: d.reason.type,
          step: r.detailed.step,
          ...(d.reason.checkId ? { checkId: d.reason.checkId } : {}),
          ...(d.reason.rule ? { ruleText: d.reason.rule.text } : {}),
          ...(d.behavior === 'ask' && d.suggestions.length
            ? { suggestions: d.suggestions.map((x) => x.rule) }
            : {}),
        };
      } catch (e) {
        summary.errors++;
        reason = `internal error: ${e instanceof Error ? e.message : String(e)}`;
      }
      const row: ReplayRow = {
        call,
        toolName: call.tool,
        summary: summarizeInput(call.tool, input),
        decision,
        reason,
        mode,
        readOnly,
        projectRoot,
        cwd,
        input,
        ...why,
      };
      if (decision === 'ask')
        summary.asksByReason[why.reasonType ?? 'error'] =
          (summary.asksByReason[why.reasonType ?? 'error'] ?? 0) + 1;
      if (decision === 'allow' && call.outcome === 'denied') row.disagreement = 'allow-vs-user-denied';
      if (decision === 'deny' && call.outcome === 'executed') row.disagreement = 'deny-vs-ran-fine';
      summary.rows++;
      const t = (summary.byTool[call.tool] ??= { allow: 0, ask: 0, deny: 0 });
      t[decision]++;
      summary.byDecision[decision]++;
      summary.byOutcome[call.outcome] = (summary.byOutcome[call.outcome] ?? 0) + 1;
      if (row.disagreement === 'allow-vs-user-denied') summary.disagreements.allowVsUserDenied.push(row);
      if (row.disagreement === 'deny-vs-ran-fine') summary.disagreements.denyVsRanFine.push(row);
      await opts.onCall?.(row);
    }
  }
  return summary;
}
