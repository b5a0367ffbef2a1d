/**
 * Command hooks for the events other than PreToolUse (Claude Code's hook protocol, Claude Code
 * documentation "Hooks reference"): SessionStart, UserPromptSubmit, PostToolUse,
 * PostToolUseFailure, Stop, SubagentStop, PreCompact, PostCompact, SessionEnd. Each matching
 * handler runs as a real process (`run-command.ts`: `/bin/sh -c` in the session cwd, the input JSON
 * on stdin, `CLAUDE_PROJECT_DIR`), all of them in parallel; identical commands from several files
 * run once. This module reads what each process said; what it *means* for the event (block,
 * context, stop) is decided by the caller (the loop).
 *
 * Per process:
 * - exit 0: stdout starting with `{` that parses as a JSON object → `json`; any other stdout → `text`.
 * - exit 2: `blocking` (the block message is the JSON `reason` when given, else stderr).
 * - other exit codes: a valid JSON stdout still counts (`json`), else a non-blocking `error`.
 * - timeout (the handler's `timeout` seconds, else `defaultTimeoutMs`) or a failed start: `error`.
 * Matchers (`matcher.ts`) filter on `matchValue` (tool name, source, reason, trigger); without a
 * `matchValue` the event has no matcher and every entry runs.
 */
import type { HookMatcherConfig } from '../settings/types.js';
import { compileHookMatcher } from './matcher.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from './pre-tool-use.js';
import { runCommandHook } from './run-command.js';

export interface EventHookResult {
  command: string;
  exitCode: number | null;
  json?: Record<string, unknown>;
  /** Non-JSON stdout of a successful run (trimmed). */
  text?: string;
  stderr: string;
  /** Exit code 2: a blocking error. */
  blocking: boolean;
  /** A non-blocking problem (timeout, failed start, other exit code without JSON, bad matcher). */
  error?: string;
}

export interface RunEventHooksOptions {
  hooks: readonly HookMatcherConfig[];
  /** What matchers compare against; undefined = the event ignores matchers. */
  matchValue?: string;
  input: unknown;
  cwd: string;
  projectRoot: string;
  defaultTimeoutMs?: number;
  signal?: AbortSignal;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(stdout: string): Record<string, unknown> | undefined {
  const t = stdout.trimStart();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the matching command hooks of one event and reports each process (see the module comment). */
export async function runEventHooks(options: RunEventHooksOptions): Promise<EventHookResult[]> {
  const out: EventHookResult[] = [];
  const commands = new Map<string, number>();
  for (const entry of options.hooks) {
    if (options.matchValue !== undefined) {
      const m = compileHookMatcher(entry.matcher);
      if (typeof m !== 'function') {
        out.push({
          command: '',
          exitCode: null,
          stderr: '',
          blocking: false,
          error: `${entry.file ?? 'settings'}${entry.line ? `:${entry.line}` : ''}: ${m.error}`,
        });
        continue;
      }
      if (!m(options.matchValue)) continue;
    }
    for (const h of entry.hooks) {
      const timeoutMs =
        h.timeout !== undefined ? h.timeout * 1000 : (options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
      if (!commands.has(h.command)) commands.set(h.command, timeoutMs);
    }
  }
  const env = { CLAUDE_PROJECT_DIR: options.projectRoot, GANTRY_PROJECT_DIR: options.projectRoot };
  const runs = await Promise.all(
    [...commands].map(async ([command, timeoutMs]): Promise<EventHookResult> => {
      const run = await runCommandHook({
        command,
        input: options.input,
        cwd: options.cwd,
        timeoutMs,
        env,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const base = { command, exitCode: run.exitCode, stderr: run.stderr, blocking: false };
      if (run.spawnError) return { ...base, error: `hook could not start: ${run.spawnError}` };
      if (run.timedOut) return { ...base, error: `hook timed out after ${timeoutMs} ms (ignored)` };
      const json = parseJson(run.stdout);
      if (run.exitCode === 2) return { ...base, blocking: true, ...(json ? { json } : {}) };
      if (json) return { ...base, json };
      if (run.exitCode === 0) {
        const text = run.stdout.trim();
        return text ? { ...base, text } : base;
      }
      const first = run.stderr.trim().split('\n')[0] ?? '';
      return {
        ...base,
        error: `hook exited with ${run.exitCode}${first ? `: ${first}` : ''} (non-blocking)`,
      };
    }),
  );
  return [...out, ...runs];
}
