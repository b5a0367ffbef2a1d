/**
 * `gantry hook`: one hook invocation — stdin JSON → guard decision → hook JSON + exit code
 * (hook-protocol.ts). Never crashes the host: malformed input and internal errors answer `ask`
 * with the reason (fail closed, but not a hard block on unrelated tools).
 *
 * It does not run the PreToolUse hooks listed in settings (it is one of them). Decisions and
 * PostToolUse events are appended to a JSONL log (`GANTRY_HOOK_LOG`, default
 * `~/.gantry/hook-log.jsonl`; `GANTRY_HOOK_LOG=off` disables it).
 */
import path from 'node:path';
import { PERMISSION_MODES, type PermissionMode } from '../../core/permission-types.js';
import { createGuard, explicitSettingsErrors, type Guard, type GuardOptions } from '../shared/guard.js';
import { summariseInput } from '../audit/input-summary.js';
import { appendAuditLine as appendHookLog } from '../audit/audit-log.js';
import {
  answerFor,
  askAnswer,
  type HookAnswer,
  type HookPayload,
  hostAgentOf,
  parseHookInput,
} from './hook-protocol.js';

export interface HookOptions {
  /** Extra settings files (`--settings`). */
  settingsFiles?: string[];
  /** Emit no decision for allow (let the host's own rules decide). */
  passAllow?: boolean;
  /** Emit only deny decisions (`--deny-only`; see `answerFor`). */
  denyOnly?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  /** Overrides for tests (home, managed files). */
  guard?: Partial<GuardOptions>;
  /** Working directory when the payload has no absolute `cwd` (default: process.cwd()). */
  fallbackCwd?: string;
  /** Builds the guard (default `createGuard`; the resident server passes a cached one). */
  makeGuard?: (o: GuardOptions) => Guard;
  /** The face that decided, for the audit log (`hook` by default; `serve` for the HTTP hook). */
  face?: 'hook' | 'serve';
  /** Host agent named by the installer (`GANTRY_HOST`); otherwise read from the payload. */
  host?: string;
  /** Command-line errors (an unknown flag): the answer is ask with them, never a decision without them. */
  argErrors?: string[];
}

const record = appendHookLog;

/** The fields every audit line of one payload shares. */
function payloadFields(p: HookPayload, host: string | undefined): Record<string, unknown> {
  return {
    host: host ?? hostAgentOf(p),
    event: p.hook_event_name,
    tool: p.tool_name,
    ...(p.session_id ? { session: p.session_id } : {}),
    ...(p.agent_id ? { agent_id: p.agent_id } : {}),
    ...(p.agent_type ? { agent_type: p.agent_type } : {}),
    ...(p.tool_use_id ? { tool_use_id: p.tool_use_id } : {}),
    ...(p.cwd ? { cwd: p.cwd } : {}),
  };
}

/** Decides one hook invocation from its stdin text. Never throws. */
export async function handleHook(stdinText: string, opts: HookOptions = {}): Promise<HookAnswer> {
  const env = opts.env ?? process.env;
  // process.hrtime, not performance.now(): the global `performance` loads perf_hooks (docs/startup.md)
  const started = process.hrtime.bigint();
  const face = opts.face ?? 'hook';
  const host = opts.host ?? env.GANTRY_HOST;
  const parsed = parseHookInput(stdinText);
  if (opts.argErrors?.length && (parsed.kind === 'decide' || parsed.kind === 'invalid')) {
    const message = `gantry hook was started with a bad command line (${opts.argErrors.join('; ')}); asking instead of deciding — fix the hook command in the agent's settings`;
    record(env, { face, event: 'usage-error', decision: 'ask', reason: message });
    return askAnswer(message, { denyOnly: opts.denyOnly === true });
  }
  if (parsed.kind === 'invalid') {
    const message = `could not read the hook input: ${parsed.message}`;
    record(env, { face, event: 'invalid-input', decision: 'ask', reason: message, bytes: stdinText.length });
    return askAnswer(message, { denyOnly: opts.denyOnly === true });
  }
  if (parsed.kind === 'ignore') return { stdout: '', stderr: '', exitCode: 0 };
  if (parsed.kind === 'record') {
    const p = parsed.payload;
    record(env, {
      face,
      ...payloadFields(p, host),
      input: summariseInput(p.tool_input),
      outcome: p.hook_event_name === 'PostToolUseFailure' ? 'error' : 'done',
    });
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  const base = payloadFields(parsed.payload, host);
  try {
    const { payload, toolName, input } = parsed;
    const cwd =
      payload.cwd && path.isAbsolute(payload.cwd) ? payload.cwd : (opts.fallbackCwd ?? process.cwd());
    const projectRoot =
      env.CLAUDE_PROJECT_DIR && path.isAbsolute(env.CLAUDE_PROJECT_DIR) ? env.CLAUDE_PROJECT_DIR : cwd;
    const mode = PERMISSION_MODES.includes(payload.permission_mode as PermissionMode)
      ? (payload.permission_mode as PermissionMode)
      : undefined;
    const guard = (opts.makeGuard ?? createGuard)({
      cwd,
      projectRoot,
      ...(opts.settingsFiles ? { settingsFiles: opts.settingsFiles } : {}),
      ...(payload.transcript_path ? { transcriptPath: payload.transcript_path } : {}),
      // the caller's deadline (docs/analysis-budget.md) and trust variables, also when a resident
      // server answers
      env: {
        GANTRY_ANALYSIS_DEADLINE_MS: env.GANTRY_ANALYSIS_DEADLINE_MS,
        GANTRY_TRUST_PROJECT: env.GANTRY_TRUST_PROJECT,
      },
      ...opts.guard,
    });
    const broken = explicitSettingsErrors(guard.settings, opts.settingsFiles)[0];
    if (broken) {
      const message = `the settings file ${broken.file} given with --settings is unusable (${broken.message}); asking instead of deciding without its rules`;
      record(env, { face, ...base, event: 'settings-error', decision: 'ask', reason: message });
      return askAnswer(message, { denyOnly: opts.denyOnly === true });
    }
    const result = await guard.check(toolName, input, {
      cwd,
      ...(mode ? { mode } : {}),
      ...(payload.session_id ? { sessionId: payload.session_id } : {}),
      ...(payload.tool_use_id ? { toolUseId: payload.tool_use_id } : {}),
    });
    const decision = result.detailed.decision;
    const why = decision.reason;
    record(env, {
      face,
      ...base,
      tool: toolName,
      mode: result.detailed.mode,
      input: summariseInput(input),
      decision: decision.behavior,
      step: result.detailed.step,
      reason_type: why.type,
      ...(why.rule
        ? {
            rule: {
              text: why.rule.text,
              source: why.rule.source,
              ...(why.rule.file ? { file: why.rule.file } : {}),
              ...(why.rule.line ? { line: why.rule.line } : {}),
            },
          }
        : {}),
      ...(why.checkId ? { check_id: why.checkId } : {}),
      reason: why.message,
      latency_ms: Math.round(Number(process.hrtime.bigint() - started) / 1000) / 1000,
    });
    return answerFor(decision, { passAllow: opts.passAllow === true, denyOnly: opts.denyOnly === true });
  } catch (e) {
    const message = `internal error while deciding: ${e instanceof Error ? e.message : String(e)}`;
    record(env, { face, ...base, event: 'internal-error', decision: 'ask', reason: message });
    return askAnswer(message, { denyOnly: opts.denyOnly === true });
  }
}

/** Reads all of stdin as UTF-8. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
