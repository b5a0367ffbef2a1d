/**
 * A bounded, content-free summary of a tool input for the audit log (docs/guard.md "Audit log"):
 * the command of a Bash call, the paths, patterns, URLs and queries of the others — never the
 * text a Write or Edit would put into a file. Each value is cut at {@link SUMMARY_MAX_CHARS}
 * characters (a heredoc keeps its first line and says how many lines followed).
 */

/** Longest value kept per field, in characters. */
export const SUMMARY_MAX_CHARS = 300;

/** Input fields that name what a call acts on (never file contents). */
const KEPT_FIELDS = [
  'command',
  'file_path',
  'notebook_path',
  'path',
  'pattern',
  'glob',
  'url',
  'query',
  'description',
  'subagent_type',
  'task_id',
  'skill',
] as const;

function cut(text: string): string {
  const lines = text.split('\n');
  let out = text;
  if (lines.length > 3) out = `${lines[0]} … (+${lines.length - 1} more lines)`;
  return out.length > SUMMARY_MAX_CHARS ? `${out.slice(0, SUMMARY_MAX_CHARS)}…` : out;
}

/** The summary: the kept fields that are strings (cut), plus the names of the other fields. */
export function summariseInput(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of KEPT_FIELDS) {
    const v = Object.hasOwn(input, k) ? input[k] : undefined;
    if (typeof v === 'string') out[k] = cut(v);
  }
  const other = Object.keys(input).filter((k) => !(KEPT_FIELDS as readonly string[]).includes(k));
  if (other.length > 0) out.fields = other.slice(0, 20);
  return out;
}
