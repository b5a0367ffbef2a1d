/**
 * Reads recorded tool calls from the formats `gantry replay` accepts:
 *
 * 1. Claude Code session transcripts (`~/.claude/projects/<dir>/<sessionId>.jsonl` and sub-agent files):
 *    `assistant` lines carry `tool_use` blocks, later `user` lines carry the matching `tool_result`
 *    (docs/loop.md; observed Claude Code transcripts).
 * 2. The headless `stream-json` variant (`claude -p --output-format stream-json`): the cwd is only in the
 *    `system/init` event (observed Claude Code transcripts).
 * 3. The normalised one-call-per-line shape (`{tool, input, cwd, outcome, …}`, observed Claude Code transcripts).
 *
 * Malformed lines are counted, never fatal; so are lines over the size limit (default 64 MiB), which
 * are skipped without being read into memory whole. Calls are matched to results by `tool_use_id`.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MAX_LINE_BYTES, readJsonlLines } from './jsonl-lines.js';

/** What happened to a call in the original session. */
export type RecordedOutcome = 'executed' | 'error' | 'denied' | 'unknown';

export interface RecordedCall {
  file: string;
  /** 1-based line of the tool_use in `file`. */
  line: number;
  session: string;
  toolUseId: string;
  tool: string;
  input: Record<string, unknown>;
  /** Working directory of the session when the call was made ('' when the file does not say). */
  cwd: string;
  /** Permission mode recorded near the call, when the transcript says. */
  permissionMode?: string;
  isSidechain: boolean;
  outcome: RecordedOutcome;
  /** First 300 characters of the result text (error or denial message). */
  outcomeDetail?: string;
}

export interface ReadStats {
  files: number;
  lines: number;
  malformedLines: number;
  /** Of the malformed lines, those skipped for being over the size limit. */
  oversizedLines: number;
  calls: number;
  callsWithoutResult: number;
}

/**
 * Texts that mark a `tool_result` as a permission refusal rather than a tool error
 * (observed Claude Code transcripts, plus the mkdir/write-permission texts seen in the m-claude session).
 */
const DENIAL_PATTERNS: readonly RegExp[] = [
  /^The user doesn't want to (proceed|take this action)/,
  /^(Error: )?This command requires approval/,
  /^(Error: )?Permission to use \S+ has been (auto-)?denied/,
  /^(Error: )?Claude requested permissions to /,
  /was blocked\. For security, Claude Code may only/,
  /^(Error: )?Permission denied by (a )?(hook|rule|policy)/i,
  /\[Request interrupted by user for tool use\]/,
  // Gantry's own refusals (src/runtime/authorize-call.ts), so `gantry replay` reads Gantry transcripts too.
  /^Permission to use \S+ (was denied|is required \()/,
  /^Permission for this \S+ call was refused/,
];

/** True when a tool_result text is a permission refusal (user, rule, hook or mode). */
export function isDenialText(text: string): boolean {
  return DENIAL_PATTERNS.some((re) => re.test(text));
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) =>
        b && typeof b === 'object' && (b as { type?: string }).type === 'text'
          ? String((b as { text?: unknown }).text ?? '')
          : '',
      )
      .join('\n');
  }
  return '';
}

function asObject(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Lists transcript files under the given paths (directories are searched recursively for `*.jsonl`). */
export async function listTranscriptFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (p: string): Promise<void> => {
    const s = await stat(p);
    if (s.isFile()) {
      out.push(p);
      return;
    }
    if (!s.isDirectory()) return;
    const entries = await readdir(p, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const child = path.join(p, e.name);
      if (e.isDirectory()) await walk(child);
      else if (e.isFile() && e.name.endsWith('.jsonl')) out.push(child);
    }
  };
  for (const p of paths) await walk(p);
  return out;
}

/**
 * Reads every recorded call of one file, in file order. Results are matched by tool_use id within the file;
 * a call with no result gets outcome `unknown`.
 */
export async function readRecordedCalls(
  file: string,
  stats?: ReadStats,
  options: { maxLineBytes?: number } = {},
): Promise<RecordedCall[]> {
  const calls: RecordedCall[] = [];
  const byId = new Map<string, RecordedCall>();
  let initCwd = '';
  let permissionMode: string | undefined;
  let lineNo = 0;
  for await (const line of readJsonlLines(file, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)) {
    lineNo++;
    if (stats) stats.lines++;
    if (line.kind === 'too-long') {
      if (stats) {
        stats.malformedLines++;
        stats.oversizedLines++;
      }
      continue;
    }
    const raw = line.text;
    if (!raw.trim()) continue;
    let d: Record<string, unknown> | undefined;
    try {
      d = asObject(JSON.parse(raw));
    } catch {
      d = undefined;
    }
    if (!d) {
      if (stats) stats.malformedLines++;
      continue;
    }
    // Shape 3: normalised one-call-per-line.
    if (typeof d.tool === 'string' && asObject(d.input) && !d.message) {
      const outcome =
        d.outcome === 'ok'
          ? 'executed'
          : d.outcome === 'error'
            ? 'error'
            : d.outcome === 'denied'
              ? 'denied'
              : 'unknown';
      calls.push({
        file,
        line: lineNo,
        session: String(d.session ?? ''),
        toolUseId: String(d.tool_use_id ?? `${path.basename(file)}:${lineNo}`),
        tool: d.tool,
        input: asObject(d.input) ?? {},
        cwd: String(d.cwd ?? ''),
        isSidechain: /\/(agent|task)-/.test(String(d.session ?? '')),
        outcome,
        ...(typeof d.outcome_detail === 'string' ? { outcomeDetail: d.outcome_detail.slice(0, 300) } : {}),
      });
      continue;
    }
    if (d.type === 'system' && d.subtype === 'init' && typeof d.cwd === 'string') {
      initCwd = d.cwd;
      if (typeof d.permissionMode === 'string') permissionMode = d.permissionMode;
      continue;
    }
    if (typeof d.permissionMode === 'string') permissionMode = d.permissionMode;
    const message = asObject(d.message);
    const content = message?.content;
    if (!Array.isArray(content)) continue;
    const cwd = typeof d.cwd === 'string' ? d.cwd : initCwd;
    const session = String(d.sessionId ?? d.session_id ?? '');
    const isSidechain =
      d.isSidechain === true || (typeof d.parent_tool_use_id === 'string' && d.parent_tool_use_id !== '');
    for (const block of content) {
      const b = asObject(block);
      if (!b) continue;
      if (
        d.type === 'assistant' &&
        b.type === 'tool_use' &&
        typeof b.id === 'string' &&
        typeof b.name === 'string'
      ) {
        const call: RecordedCall = {
          file,
          line: lineNo,
          session,
          toolUseId: b.id,
          tool: b.name,
          input: asObject(b.input) ?? {},
          cwd,
          isSidechain,
          outcome: 'unknown',
          ...(permissionMode ? { permissionMode } : {}),
        };
        if (!byId.has(b.id)) {
          byId.set(b.id, call);
          calls.push(call);
        }
      } else if (d.type === 'user' && b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
        const call = byId.get(b.tool_use_id);
        if (!call) continue;
        const text = resultText(b.content);
        if (b.is_error === true) {
          call.outcome = isDenialText(text) ? 'denied' : 'error';
          call.outcomeDetail = text.slice(0, 300);
        } else {
          call.outcome = 'executed';
        }
      }
    }
  }
  if (stats) {
    stats.files++;
    stats.calls += calls.length;
    stats.callsWithoutResult += calls.filter((c) => c.outcome === 'unknown').length;
  }
  return calls;
}

/** Fresh zeroed stats. */
export function newReadStats(): ReadStats {
  return { files: 0, lines: 0, malformedLines: 0, oversizedLines: 0, calls: 0, callsWithoutResult: 0 };
}
