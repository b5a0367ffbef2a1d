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
import { appendHookLog } from './hook-client.js';
import { answerFor, askAnswer, type HookAnswer, parseHookInput } from './hook-protocol.js';

export interface HookOptions {
  /** Extra settings files (`--settings`). */
  settingsFiles?: string[];
  /** Emit no decision for allow (let the host's own rules decide). */
  passAllow?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  /** Overrides for tests (home, managed files). */
  guard?: Partial<GuardOptions>;
  /** Working directory when the payload has no absolute `cwd` (default: process.cwd()). */
  fallbackCwd?: string;
  /** Builds the guard (default `createGuard`; the resident server passes a cached one). */
  makeGuard?: (o: GuardOptions) => Guard;
}

const record = appendHookLog;

/** Decides one hook invocation from its stdin text. Never throws. */
export async function handleHook(stdinText: string, opts: HookOptions = {}): Promise<HookAnswer> {
  const env = opts.env ?? process.env;
  const parsed = parseHookInput(stdinText);
  if (parsed.kind === 'invalid') return askAnswer(`could not read the hook input: ${parsed.message}`);
  if (parsed.kind === 'ignore') return { stdout: '', stderr: '', exitCode: 0 };
  if (parsed.kind === 'record') {
    record(env, {
      event: parsed.payload.hook_event_name,
      tool: parsed.payload.tool_name,
      session: parsed.payload.session_id,
      tool_use_id: parsed.payload.tool_use_id,
    });
    return { stdout: '', stderr: '', exitCode: 0 };
  }
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
      ...opts.guard,
    });
    const broken = explicitSettingsErrors(guard.settings, opts.settingsFiles)[0];
    if (broken)
      return askAnswer(
        `the settings file ${broken.file} given with --settings is unusable (${broken.message}); asking instead of deciding without its rules`,
      );
    const result = await guard.check(toolName, input, {
      cwd,
      ...(mode ? { mode } : {}),
      ...(payload.session_id ? { sessionId: payload.session_id } : {}),
      ...(payload.tool_use_id ? { toolUseId: payload.tool_use_id } : {}),
    });
    const decision = result.detailed.decision;
    record(env, {
      event: 'PreToolUse',
      tool: toolName,
      session: payload.session_id,
      tool_use_id: payload.tool_use_id,
      decision: decision.behavior,
      reason: decision.reason.message,
    });
    return answerFor(decision, { passAllow: opts.passAllow === true });
  } catch (e) {
    return askAnswer(`internal error while deciding: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Reads all of stdin as UTF-8. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
