/**
 * PreToolUse hooks, Claude Code's protocol (the Claude Code hooks reference): every matching command hook runs in parallel
 * with the hook input on stdin; their answers merge with precedence deny > defer > ask > allow
 * (`defer` is treated as ask). Per hook:
 *
 * - exit 2 → deny; the reason is the JSON's blocking reason if any, else stderr. A JSON allow cannot
 *   override exit 2.
 * - exit 0 → stdout parsed as JSON when it starts with `{`: `hookSpecificOutput.permissionDecision`
 *   allow|deny|ask|defer with `permissionDecisionReason` and `updatedInput`; deprecated top-level
 *   `decision: approve|block` (+ `reason`) maps to allow|deny; `continue: false` is treated as deny
 *   (the host stops, so the call must not run). Other stdout is ignored.
 * - other exit codes → the JSON decides when stdout holds valid JSON; otherwise a non-blocking error.
 * - timeout (default 60 s, the hook's `timeout` in seconds overrides), failure to start → a
 *   non-blocking error: the call proceeds to the normal permission flow.
 */
import type { PermissionMode } from '../../core/permission-types.js';
import type { HookMatcherConfig } from '../settings/types.js';
import { compileHookMatcher } from './matcher.js';
import { type CommandHookRun, runCommandHook } from './run-command.js';
import type { HookVerdict } from './types.js';

export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

export interface PreToolUseInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: PermissionMode;
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
}

type Decision = 'allow' | 'ask' | 'deny' | 'defer';
interface SingleVerdict {
  decision?: Decision;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  error?: string;
  additionalContext?: string;
}

const RANK: Record<Decision, number> = { deny: 3, defer: 2, ask: 1, allow: 0 };
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a hook's JSON stdout (undefined when stdout is not a JSON object). */
function parseHookJson(stdout: string): SingleVerdict | undefined {
  const t = stdout.trimStart();
  if (!t.startsWith('{')) return undefined;
  let j: unknown;
  try {
    j = JSON.parse(t);
  } catch {
    return undefined;
  }
  if (!isObj(j)) return undefined;
  const v: SingleVerdict = {};
  const hso = isObj(j.hookSpecificOutput) ? j.hookSpecificOutput : undefined;
  const pd = hso?.permissionDecision;
  if (pd === 'allow' || pd === 'deny' || pd === 'ask' || pd === 'defer') v.decision = pd;
  else if (j.decision === 'approve') v.decision = 'allow';
  else if (j.decision === 'block') v.decision = 'deny';
  const reason = hso?.permissionDecisionReason ?? j.reason;
  if (typeof reason === 'string' && reason) v.reason = reason;
  if (isObj(hso?.updatedInput)) v.updatedInput = hso.updatedInput;
  if (typeof hso?.additionalContext === 'string') v.additionalContext = hso.additionalContext;
  if (j.continue === false) {
    v.decision = 'deny';
    v.reason = typeof j.stopReason === 'string' ? j.stopReason : (v.reason ?? 'the hook stopped the session');
  }
  return v;
}

/** Interprets one finished hook process (see module doc). */
export function interpretHookRun(run: CommandHookRun, timeoutMs: number): SingleVerdict {
  if (run.spawnError) return { error: `hook could not start: ${run.spawnError}` };
  if (run.timedOut) return { error: `hook timed out after ${timeoutMs} ms (ignored)` };
  const json = parseHookJson(run.stdout);
  if (run.exitCode === 2) {
    const reason =
      json?.decision === 'deny' && json.reason
        ? json.reason
        : run.stderr.trim() || 'blocked by hook (exit 2)';
    return { decision: 'deny', reason };
  }
  if (run.exitCode === 0) return json ?? {};
  if (json) return json;
  const first = run.stderr.trim().split('\n')[0] ?? '';
  return { error: `hook exited with ${run.exitCode}${first ? `: ${first}` : ''} (non-blocking)` };
}

/** Runs the matching PreToolUse hooks for one call and merges their verdicts. */
export async function runPreToolUseHooks(opts: {
  hooks: readonly HookMatcherConfig[];
  input: PreToolUseInput;
  projectRoot: string;
  defaultTimeoutMs?: number;
  signal?: AbortSignal;
}): Promise<HookVerdict | undefined> {
  const errors: string[] = [];
  const commands = new Map<string, number>();
  for (const entry of opts.hooks) {
    const m = compileHookMatcher(entry.matcher);
    if (typeof m !== 'function') {
      errors.push(`${entry.file ?? 'settings'}${entry.line ? `:${entry.line}` : ''}: ${m.error}`);
      continue;
    }
    if (!m(opts.input.tool_name)) continue;
    for (const h of entry.hooks) {
      // Identical handlers from several files run once (the Claude Code hooks reference).
      const timeoutMs =
        h.timeout !== undefined ? h.timeout * 1000 : (opts.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
      if (!commands.has(h.command)) commands.set(h.command, timeoutMs);
    }
  }
  if (commands.size === 0) return errors.length ? { hook: '', errors, additionalContext: [] } : undefined;
  const env = { CLAUDE_PROJECT_DIR: opts.projectRoot, GANTRY_PROJECT_DIR: opts.projectRoot };
  const results = await Promise.all(
    [...commands].map(async ([command, timeoutMs]) => {
      const run = await runCommandHook({
        command,
        input: opts.input,
        cwd: opts.input.cwd,
        timeoutMs,
        env,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      return { command, verdict: interpretHookRun(run, timeoutMs) };
    }),
  );
  let best: { command: string; verdict: SingleVerdict } | undefined;
  const additionalContext: string[] = [];
  for (const r of results) {
    if (r.verdict.error) errors.push(`${r.command}: ${r.verdict.error}`);
    if (r.verdict.additionalContext) additionalContext.push(r.verdict.additionalContext);
    const d = r.verdict.decision;
    if (d && (!best?.verdict.decision || RANK[d] > RANK[best.verdict.decision])) best = r;
  }
  const d = best?.verdict.decision;
  const verdict: HookVerdict = { hook: best?.command ?? '', errors, additionalContext };
  if (d) verdict.decision = d === 'defer' ? 'ask' : d;
  if (best?.verdict.reason) verdict.reason = best.verdict.reason;
  if (best?.verdict.updatedInput && (d === 'allow' || d === 'ask'))
    verdict.updatedInput = best.verdict.updatedInput;
  return verdict;
}

/**
 * Merges two merged verdicts (command hooks and callback hooks of one call): the stronger decision
 * wins (deny > ask > allow) with its reason, hook and replacement input; errors and additional
 * context of both are kept. Either may be undefined.
 */
export function mergeHookVerdicts(
  a: HookVerdict | undefined,
  b: HookVerdict | undefined,
): HookVerdict | undefined {
  if (!a) return b;
  if (!b) return a;
  const rank = (v: HookVerdict): number => (v.decision ? RANK[v.decision] : -1);
  const winner = rank(b) > rank(a) ? b : a;
  const merged: HookVerdict = {
    hook: winner.hook,
    errors: [...a.errors, ...b.errors],
    additionalContext: [...a.additionalContext, ...b.additionalContext],
  };
  if (winner.decision) merged.decision = winner.decision;
  if (winner.reason) merged.reason = winner.reason;
  if (winner.updatedInput) merged.updatedInput = winner.updatedInput;
  return merged;
}
