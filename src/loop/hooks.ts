/**
 * The loop's hooks: command hooks from settings (real processes, `runEventHooks`) and the host's
 * callbacks (the Agent SDK's hook callbacks), run together for one event and read with Claude
 * Code's rules (Claude Code documentation, "Hooks reference"):
 *
 * - exit 2, or JSON `decision: "block"` → `block` with the JSON `reason`, else stderr;
 * - JSON `continue: false` → `stop` with `stopReason` (the agent stops after the hook);
 * - `hookSpecificOutput.additionalContext` → `additionalContext`; plain stdout of a successful
 *   run → `texts` (used as context by UserPromptSubmit and SessionStart only);
 * - `systemMessage` → `systemMessages` (shown to the person);
 * - anything else that went wrong (timeout, exit 1, a throwing callback) → `errors`, non-blocking,
 *   except that a callback timing out on UserPromptSubmit blocks (as the SDK's callbacks do).
 * Every string is cut at `MAX_HOOK_TEXT_CHARS`.
 *
 * PreToolUse is not run here: the permission engine runs it (once per call), and the callbacks
 * reach it through `preToolUseCallbacks()`.
 */
import { compileHookMatcher } from '../permissions/hooks/matcher.js';
import type { PreToolUseInput } from '../permissions/hooks/pre-tool-use.js';
import { runEventHooks } from '../permissions/hooks/run-event-hooks.js';
import type { HookVerdict } from '../permissions/hooks/types.js';
import type { HookCallbacks, HookCommandConfig, HookEventName, HookInput, HookJSONOutput } from './types.js';

export const MAX_HOOK_TEXT_CHARS = 10_000;
/** Default per-callback timeout, seconds. */
export const DEFAULT_CALLBACK_TIMEOUT_S = 60;

export interface HookOutcome {
  block?: { reason: string };
  stop?: { reason: string };
  additionalContext: string[];
  texts: string[];
  systemMessages: string[];
  errors: string[];
  /** `hookSpecificOutput.worktreePath` (a WorktreeCreate hook's answer in JSON). */
  worktreePath?: string;
}

export interface LoopHooksOptions {
  commands?: HookCommandConfig;
  callbacks?: HookCallbacks;
  cwd: string;
  projectRoot: string;
  /** Default timeout of command hooks (ms). */
  defaultTimeoutMs?: number;
  /** Told about each non-blocking problem (a hook that timed out, failed to start, exited 1, threw). */
  onProblem?: (event: HookEventName, message: string) => void;
}

function cut(text: string): string {
  return text.length > MAX_HOOK_TEXT_CHARS
    ? `${text.slice(0, MAX_HOOK_TEXT_CHARS)}\n… (cut at ${MAX_HOOK_TEXT_CHARS} characters)`
    : text;
}

function emptyOutcome(): HookOutcome {
  return { additionalContext: [], texts: [], systemMessages: [], errors: [] };
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Folds one hook's JSON answer into `into`. `blocking` = the process exited 2; `stderr` its stderr. */
function readJson(
  into: HookOutcome,
  json: Record<string, unknown> | undefined,
  blocking: boolean,
  stderr = '',
): void {
  if (json?.async === true) return;
  if (json?.continue === false) {
    into.stop ??= {
      reason:
        typeof json.stopReason === 'string' && json.stopReason
          ? cut(json.stopReason)
          : 'A hook stopped the session.',
    };
  }
  const reason = typeof json?.reason === 'string' && json.reason ? json.reason : undefined;
  if (json?.decision === 'block' || blocking) {
    const text =
      (json?.decision === 'block' ? reason : undefined) ?? (stderr.trim() || reason || 'Blocked by a hook.');
    into.block ??= { reason: cut(text) };
  }
  const hso = isObj(json?.hookSpecificOutput) ? json.hookSpecificOutput : undefined;
  if (typeof hso?.additionalContext === 'string' && hso.additionalContext)
    into.additionalContext.push(cut(hso.additionalContext));
  if (typeof json?.systemMessage === 'string' && json.systemMessage)
    into.systemMessages.push(cut(json.systemMessage));
  if (typeof hso?.worktreePath === 'string' && hso.worktreePath) into.worktreePath ??= hso.worktreePath;
}

function withTimeout<T>(work: Promise<T>, ms: number, signal: AbortSignal): Promise<T | 'timeout'> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve('timeout'), ms);
    const onAbort = () => resolve('timeout');
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The hooks of one session. */
export class LoopHooks {
  private cwd: string;

  constructor(private readonly options: LoopHooksOptions) {
    this.cwd = options.cwd;
  }

  /** Hook processes start in `dir` from now on (the session moved: EnterWorktree, ExitWorktree). */
  setCwd(dir: string): void {
    this.cwd = dir;
  }

  /** True when `event` has any command hook or callback. */
  has(event: HookEventName): boolean {
    return Boolean(this.options.commands?.[event]?.length || this.options.callbacks?.[event]?.length);
  }

  private callbacksFor(event: HookEventName, matchValue: string | undefined) {
    const out: {
      hook: NonNullable<HookCallbacks[HookEventName]>[number]['hooks'][number];
      timeoutS: number;
    }[] = [];
    for (const m of this.options.callbacks?.[event] ?? []) {
      if (matchValue !== undefined) {
        const f = compileHookMatcher(m.matcher);
        if (typeof f !== 'function' || !f(matchValue)) continue;
      }
      for (const hook of m.hooks) out.push({ hook, timeoutS: m.timeout ?? DEFAULT_CALLBACK_TIMEOUT_S });
    }
    return out;
  }

  /** Runs the command hooks and callbacks of `event` (all in parallel) and merges what they said. */
  async run(
    event: HookEventName,
    input: HookInput,
    options: { matchValue?: string; toolUseId?: string; signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<HookOutcome> {
    const outcome = emptyOutcome();
    if (!this.has(event)) return outcome;
    const signal = options.signal ?? new AbortController().signal;
    const commands = this.options.commands?.[event] ?? [];
    const callbacks = this.callbacksFor(event, options.matchValue);
    const [runs, answers] = await Promise.all([
      commands.length
        ? runEventHooks({
            hooks: commands,
            ...(options.matchValue !== undefined ? { matchValue: options.matchValue } : {}),
            input,
            cwd: this.cwd,
            projectRoot: this.options.projectRoot,
            ...(options.timeoutMs !== undefined || this.options.defaultTimeoutMs !== undefined
              ? { defaultTimeoutMs: options.timeoutMs ?? this.options.defaultTimeoutMs }
              : {}),
            signal,
          })
        : [],
      Promise.all(
        callbacks.map(async ({ hook, timeoutS }) => {
          const controller = new AbortController();
          const onAbort = () => controller.abort();
          signal.addEventListener('abort', onAbort, { once: true });
          try {
            const ms =
              options.timeoutMs !== undefined
                ? Math.min(options.timeoutMs, timeoutS * 1000)
                : timeoutS * 1000;
            // `then` so a callback that throws synchronously is caught like one that rejects.
            const answer = await withTimeout(
              Promise.resolve().then(() => hook(input, options.toolUseId, { signal: controller.signal })),
              ms,
              signal,
            );
            if (answer === 'timeout') controller.abort();
            return answer;
          } catch (error) {
            return { thrown: error instanceof Error ? error.message : String(error) };
          } finally {
            signal.removeEventListener('abort', onAbort);
          }
        }),
      ),
    ]);
    for (const r of runs) {
      if (r.error) outcome.errors.push(r.command ? `${r.command}: ${r.error}` : r.error);
      readJson(outcome, r.json, r.blocking, r.stderr);
      if (r.text) outcome.texts.push(cut(r.text));
    }
    for (const a of answers) {
      if (a === 'timeout') {
        outcome.errors.push(`a ${event} hook callback timed out`);
        if (event === 'UserPromptSubmit') outcome.block ??= { reason: `A ${event} hook callback timed out.` };
        continue;
      }
      if (isObj(a) && 'thrown' in a) {
        outcome.errors.push(`a ${event} hook callback failed: ${String(a.thrown)}`);
        continue;
      }
      readJson(outcome, isObj(a) ? a : undefined, false);
    }
    for (const e of outcome.errors) this.options.onProblem?.(event, e);
    return outcome;
  }

  /**
   * The PreToolUse callbacks as the engine's `preToolUseCallbacks` (undefined when there are none):
   * each answer becomes a verdict (`permissionDecision`, legacy `approve`/`block`, `continue:false`
   * = deny, a timeout = deny), merged deny > ask > allow.
   */
  preToolUseCallbacks():
    | ((input: PreToolUseInput, signal?: AbortSignal) => Promise<HookVerdict | undefined>)
    | undefined {
    if (!this.options.callbacks?.PreToolUse?.length) return undefined;
    return async (input, signal) => {
      const callbacks = this.callbacksFor('PreToolUse', input.tool_name);
      if (callbacks.length === 0) return undefined;
      const rank = { allow: 0, ask: 1, deny: 2 } as const;
      const verdict: HookVerdict = { hook: 'callback', errors: [], additionalContext: [] };
      const sig = signal ?? new AbortController().signal;
      const answers = await Promise.all(
        callbacks.map(async ({ hook, timeoutS }) => {
          try {
            return await withTimeout(
              Promise.resolve().then(() => hook(input as HookInput, input.tool_use_id, { signal: sig })),
              timeoutS * 1000,
              sig,
            );
          } catch (error) {
            return { thrown: error instanceof Error ? error.message : String(error) };
          }
        }),
      );
      for (const a of answers) {
        let decision: 'allow' | 'ask' | 'deny' | undefined;
        let reason: string | undefined;
        let updatedInput: Record<string, unknown> | undefined;
        if (a === 'timeout') {
          decision = 'deny';
          reason = 'A PreToolUse hook callback timed out.';
        } else if (isObj(a) && 'thrown' in a) {
          verdict.errors.push(`PreToolUse callback failed: ${String(a.thrown)}`);
          continue;
        } else if (isObj(a) && a.async !== true) {
          const hso = isObj(a.hookSpecificOutput) ? a.hookSpecificOutput : undefined;
          const pd = hso?.permissionDecision;
          if (pd === 'allow' || pd === 'deny' || pd === 'ask') decision = pd;
          else if (pd === 'defer') decision = 'ask';
          else if (a.decision === 'approve') decision = 'allow';
          else if (a.decision === 'block') decision = 'deny';
          const r = hso?.permissionDecisionReason ?? a.reason;
          if (typeof r === 'string' && r) reason = r;
          if (isObj(hso?.updatedInput)) updatedInput = hso.updatedInput;
          if (typeof hso?.additionalContext === 'string')
            verdict.additionalContext.push(hso.additionalContext);
          if (a.continue === false) {
            decision = 'deny';
            reason =
              typeof a.stopReason === 'string' ? a.stopReason : (reason ?? 'A hook stopped the session.');
          }
        }
        if (decision && (!verdict.decision || rank[decision] > rank[verdict.decision])) {
          verdict.decision = decision;
          if (reason) verdict.reason = reason;
          else delete verdict.reason;
          if (updatedInput && decision !== 'deny') verdict.updatedInput = updatedInput;
          else delete verdict.updatedInput;
        }
      }
      return verdict;
    };
  }
}

/** The `<system-reminder>` text a hook's context reaches the model as. */
export function hookContextText(event: HookEventName, texts: readonly string[]): string {
  return `<system-reminder>\n${event} hook context:\n${texts.join('\n\n')}\n</system-reminder>`;
}

export type { HookJSONOutput };
