/**
 * Claude Code's hook protocol, as `gantry hook` speaks it (the Claude Code hooks reference):
 * stdin JSON in → decision JSON out + exit code.
 *
 * Accepted events: `PreToolUse` (decides) and `PostToolUse`/`PostToolUseFailure` (recorded, no
 * decision). Also the Claude-compatible payloads other agents send: Gemini CLI's `BeforeTool` /
 * `AfterTool` with its tool names (`run_shell_command`, `read_file`, `write_file`, `replace`, …), and
 * shells given as an argv array (Codex-style `command: ["bash", "-lc", "…"]`).
 */
import { getOwn } from '../../core/get-own.js';
import type { PermissionDecision } from '../../core/index.js';
import { foreignToolName } from '../../core/tool-traits.js';

export interface HookPayload {
  hook_event_name: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  cwd?: string;
  permission_mode?: string;
  session_id?: string;
  transcript_path?: string;
  tool_use_id?: string;
  /** Set by Claude Code when the call comes from a subagent. */
  agent_id?: string;
  agent_type?: string;
}

export type ParsedHookInput =
  | { kind: 'decide'; payload: HookPayload; toolName: string; input: Record<string, unknown> }
  | { kind: 'record'; payload: HookPayload }
  | { kind: 'ignore'; event: string }
  | { kind: 'invalid'; message: string };

const PRE_EVENTS = new Set(['PreToolUse', 'BeforeTool']);
const POST_EVENTS = new Set(['PostToolUse', 'PostToolUseFailure', 'AfterTool']);

/** POSIX single-quote a word when it needs it. */
function shQuote(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** Normalises a tool call to Claude Code's names and fields (the `foreignNames` of the trait table). */
export function normaliseToolCall(
  toolName: string,
  input: Record<string, unknown>,
): { toolName: string; input: Record<string, unknown> } {
  const alias = foreignToolName(toolName);
  if (!alias) return { toolName, input };
  const renames = alias.foreign.fields ?? {};
  // Object.fromEntries defines own properties: a `__proto__` key stays a plain key.
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(input).map(([k, v]) => [getOwn(renames, k) ?? k, v]),
  );
  if (alias.traits.name === 'Bash' && Array.isArray(out.command)) {
    const argv = out.command.map(String);
    // `bash -lc "<script>"` runs the script: check the script itself.
    const script =
      argv.length === 3 &&
      /^(ba|z|da)?sh$/.test(argv[0]?.split('/').pop() ?? '') &&
      /^-l?c$/.test(argv[1] ?? '');
    out.command = script ? (argv[2] as string) : argv.map(shQuote).join(' ');
  }
  return { toolName: alias.traits.name, input: out };
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
  for (const k of [
    'cwd',
    'permission_mode',
    'session_id',
    'transcript_path',
    'tool_use_id',
    'agent_id',
    'agent_type',
  ] as const) {
    if (typeof o[k] === 'string') payload[k] = o[k] as string;
  }
  if (POST_EVENTS.has(event)) return { kind: 'record', payload };
  const n = normaliseToolCall(payload.tool_name, payload.tool_input);
  return { kind: 'decide', payload, toolName: n.toolName, input: n.input };
}

/** Which agent sent a payload: Gemini CLI's event names, else Claude Code's protocol (Codex speaks it too). */
export function hostAgentOf(payload: Pick<HookPayload, 'hook_event_name'>): 'gemini' | 'claude' {
  return payload.hook_event_name === 'BeforeTool' || payload.hook_event_name === 'AfterTool'
    ? 'gemini'
    : 'claude';
}

export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * The hook's answer for a decision (the Claude Code hooks reference): allow/ask → exit 0 with
 * `hookSpecificOutput.permissionDecision`; deny → the same JSON and exit 2 with the reason on stderr
 * (so hosts that only read exit codes block too). `passAllow` leaves allow decisions to the host
 * (no decision emitted) for users who want Gantry to only tighten. `denyOnly` is for hosts whose
 * PreToolUse hooks can only block (Codex reports `allow` and `ask` from a hook as unsupported): only
 * a deny is emitted, a policy ask is left to the host's own approval, and an error's fail-closed
 * ask becomes a deny.
 */
export function answerFor(
  decision: PermissionDecision,
  opts: { passAllow?: boolean; denyOnly?: boolean } = {},
): HookAnswer {
  const reason = `Gantry: ${decision.reason.message}`;
  if (decision.behavior === 'allow' && (opts.passAllow || opts.denyOnly))
    return { stdout: '{}\n', stderr: '', exitCode: 0 };
  // Where a host cannot ask (Codex), an error's fail-closed ask blocks; a policy ask is left to the host.
  const behavior =
    opts.denyOnly && decision.behavior === 'ask' && decision.reason.type === 'error'
      ? 'deny'
      : decision.behavior;
  if (behavior === 'ask' && opts.denyOnly) return { stdout: '{}\n', stderr: '', exitCode: 0 };
  const body = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: behavior,
      permissionDecisionReason: reason,
    },
  };
  return {
    stdout: `${JSON.stringify(body)}\n`,
    stderr: behavior === 'deny' ? `${reason}\n` : '',
    exitCode: behavior === 'deny' ? 2 : 0,
  };
}

/** Fail-closed answer for malformed input or an internal error: ask, with the reason (never a hard block). */
export function askAnswer(message: string, opts: { denyOnly?: boolean } = {}): HookAnswer {
  return answerFor({ behavior: 'ask', reason: { type: 'error', message }, suggestions: [] }, opts);
}
