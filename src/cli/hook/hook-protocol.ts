/**
 * Claude Code's hook protocol, as `gantry hook` speaks it (spec §4.4–4.6; issue 7):
 * stdin JSON in → decision JSON out + exit code.
 *
 * Accepted events: `PreToolUse` (decides) and `PostToolUse`/`PostToolUseFailure` (recorded, no
 * decision). Also the Claude-compatible payloads other agents send: Gemini CLI's `BeforeTool` /
 * `AfterTool` with its tool names (`run_shell_command`, `read_file`, `write_file`, `replace`, …), and
 * shells given as an argv array (Codex-style `command: ["bash", "-lc", "…"]`).
 */
import type { PermissionDecision } from '../../core/index.js';

export interface HookPayload {
  hook_event_name: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  cwd?: string;
  permission_mode?: string;
  session_id?: string;
  transcript_path?: string;
  tool_use_id?: string;
}

export type ParsedHookInput =
  | { kind: 'decide'; payload: HookPayload; toolName: string; input: Record<string, unknown> }
  | { kind: 'record'; payload: HookPayload }
  | { kind: 'ignore'; event: string }
  | { kind: 'invalid'; message: string };

const PRE_EVENTS = new Set(['PreToolUse', 'BeforeTool']);
const POST_EVENTS = new Set(['PostToolUse', 'PostToolUseFailure', 'AfterTool']);

/** Other agents' tool names → Claude Code's (tool, field renames). */
const TOOL_ALIASES: Readonly<Record<string, { tool: string; fields?: Record<string, string> }>> = {
  run_shell_command: { tool: 'Bash' },
  shell: { tool: 'Bash' },
  exec_command: { tool: 'Bash', fields: { cmd: 'command' } },
  execute_bash: { tool: 'Bash' },
  bash: { tool: 'Bash' },
  local_shell: { tool: 'Bash' },
  read_file: { tool: 'Read', fields: { absolute_path: 'file_path', path: 'file_path' } },
  read_many_files: { tool: 'Read', fields: { absolute_path: 'file_path' } },
  write_file: { tool: 'Write', fields: { path: 'file_path' } },
  replace: { tool: 'Edit', fields: { path: 'file_path' } },
  edit_file: { tool: 'Edit', fields: { path: 'file_path' } },
  glob: { tool: 'Glob' },
  search_file_content: { tool: 'Grep' },
  grep: { tool: 'Grep' },
  web_fetch: { tool: 'WebFetch' },
};

/** POSIX single-quote a word when it needs it. */
function shQuote(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** Normalises a tool call to Claude Code's names and fields. */
export function normaliseToolCall(
  toolName: string,
  input: Record<string, unknown>,
): { toolName: string; input: Record<string, unknown> } {
  const alias = TOOL_ALIASES[toolName];
  if (!alias) return { toolName, input };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[alias.fields?.[k] ?? k] = v;
  if (alias.tool === 'Bash' && Array.isArray(out.command)) {
    const argv = out.command.map(String);
    // `bash -lc "<script>"` runs the script: check the script itself.
    const script =
      argv.length === 3 &&
      /^(ba|z|da)?sh$/.test(argv[0]?.split('/').pop() ?? '') &&
      /^-l?c$/.test(argv[1] ?? '');
    out.command = script ? (argv[2] as string) : argv.map(shQuote).join(' ');
  }
  return { toolName: alias.tool, input: out };
}

/** Parses the hook's stdin. Never throws. */
export function parseHookInput(text: string): ParsedHookInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { kind: 'invalid', message: `hook input is not JSON (${(e as Error).message})` };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { kind: 'invalid', message: 'hook input is not a JSON object' };
  const o = raw as Record<string, unknown>;
  const event = typeof o.hook_event_name === 'string' ? o.hook_event_name : 'PreToolUse';
  if (!PRE_EVENTS.has(event) && !POST_EVENTS.has(event)) return { kind: 'ignore', event };
  if (typeof o.tool_name !== 'string' || !o.tool_name)
    return { kind: 'invalid', message: 'hook input has no tool_name' };
  const toolInput = o.tool_input;
  if (!toolInput || typeof toolInput !== 'object' || Array.isArray(toolInput)) {
    return { kind: 'invalid', message: `hook input for ${o.tool_name} has no tool_input object` };
  }
  const payload: HookPayload = {
    hook_event_name: event,
    tool_name: o.tool_name,
    tool_input: toolInput as Record<string, unknown>,
  };
  for (const k of ['cwd', 'permission_mode', 'session_id', 'transcript_path', 'tool_use_id'] as const) {
    if (typeof o[k] === 'string') payload[k] = o[k] as string;
  }
  if (POST_EVENTS.has(event)) return { kind: 'record', payload };
  const n = normaliseToolCall(payload.tool_name, payload.tool_input);
  return { kind: 'decide', payload, toolName: n.toolName, input: n.input };
}

export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * The hook's answer for a decision (spec §4.5–4.6): allow/ask → exit 0 with
 * `hookSpecificOutput.permissionDecision`; deny → the same JSON and exit 2 with the reason on stderr
 * (so hosts that only read exit codes block too). `passAllow` leaves allow decisions to the host
 * (no decision emitted) for users who want Gantry to only tighten.
 */
export function answerFor(decision: PermissionDecision, opts: { passAllow?: boolean } = {}): HookAnswer {
  const reason = `Gantry: ${decision.reason.message}`;
  if (decision.behavior === 'allow' && opts.passAllow) return { stdout: '{}\n', stderr: '', exitCode: 0 };
  const body = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision.behavior,
      permissionDecisionReason: reason,
    },
  };
  return {
    stdout: `${JSON.stringify(body)}\n`,
    stderr: decision.behavior === 'deny' ? `${reason}\n` : '',
    exitCode: decision.behavior === 'deny' ? 2 : 0,
  };
}

/** Fail-closed answer for malformed input or an internal error: ask, with the reason (never a hard block). */
export function askAnswer(message: string): HookAnswer {
  return answerFor({ behavior: 'ask', reason: { type: 'error', message }, suggestions: [] });
}
