/**
 * `gantry -p`: one headless agent session (docs/cli-print.md).
 *
 *   flags → session target (new / continue / resume / fork) → agent setup (settings, engine,
 *   model client, tools) → the prompt source (argument + piped stdin, or stream-json stdin with the
 *   control protocol) → `query()` → the output format → exit code.
 *
 * Exit codes (as Claude Code): 0 when the last result succeeded (or no prompt ever came on
 * stream-json input); 1 for an error result, a start-up error and a usage error (usage errors
 * on stderr only). The entry (cli.ts) maps SIGTERM to 143 and SIGINT to 130.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { defaultGantryHome } from '../../loop/transcript/paths.js';
import { query as runQuery } from '../../loop/query.js';
import type { Query, QueryOptions, QueryPrompt } from '../../loop/types.js';
import { type AgentSetup, AgentSetupError, createAgentSetup } from '../session/agent-setup.js';
import { resolveSessionTarget, type SessionTarget, SessionTargetError } from '../session/session-target.js';
import { type PrintArgs, parsePrintArgs, UsageError } from './args.js';
import { PRINT_HELP } from './help.js';
import { runHostSession } from './host-session.js';
import { LineWriter } from './line-writer.js';
import { OutputSink } from './output.js';
import { acceptPendingFeatures, type PendingFeatures } from './pending-features.js';
import { combinePrompt, readStdinText, StdinTooLargeError } from './stdin-prompt.js';

export interface PrintIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** stdin is a terminal: nothing is piped. */
  stdinIsTTY: boolean;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `$HOME` (default: the OS's). */
  home?: string;
  /** Aborts the session (SIGTERM/SIGINT in the entry). */
  abortSignal?: AbortSignal;
  /** Wait this long for a first piped byte when a prompt argument exists (ms; default 3000). */
  stdinIdleMs?: number;
  /** Start loading the shell parser at once (default true). */
  preloadShellParser?: boolean;
  /** Start `query` (tests may wrap it); default the loop's. */
  query?: (options: QueryOptions) => Query;
}

/** What a face needs to start `query` with, minus the prompt and the host callbacks. */
export function baseQueryOptions(
  args: PrintArgs,
  setup: AgentSetup,
  target: SessionTarget,
  pending: PendingFeatures,
  prompt: QueryPrompt,
): QueryOptions {
  return {
    prompt,
    modelClient: setup.modelClient,
    model: setup.model,
    toolPool: setup.toolPool,
    cwd: setup.cwd,
    home: setup.home,
    additionalDirectories: setup.settings.additionalDirectories,
    sessionId: target.sessionId,
    permissionMode: setup.permissionMode,
    permissionEngine: setup.engine,
    settingsHooks: setup.settingsHooks,
    toolResultLimits: setup.toolResultLimits,
    ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}),
    ...(args.maxBudgetUsd !== undefined ? { maxBudgetUsd: args.maxBudgetUsd } : {}),
    ...(setup.systemPrompt !== undefined ? { systemPrompt: setup.systemPrompt } : {}),
    ...(setup.appendSystemPrompt !== undefined ? { appendSystemPrompt: setup.appendSystemPrompt } : {}),
    ...(setup.thinking ? { thinking: setup.thinking } : {}),
    includePartialMessages: args.includePartialMessages,
    transcript: { ...target.transcript, gantryHome: setup.gantryHome },
    ...(target.resume ? { resume: target.resume } : {}),
    initExtras: {
      apiKeySource: setup.apiKeySource,
      mcp_servers: pending.mcpServers.map(({ name, status, source }) => ({ name, status, source })),
    },
  };
}

/** Runs print mode; resolves with the exit code. Never throws for bad input. */
export async function runPrint(argv: readonly string[], io: PrintIo): Promise<number> {
  const err = new LineWriter(io.stderr);
  const out = new LineWriter(io.stdout);
  const note = (text: string): Promise<void> => err.writeRaw(`gantry: ${text}\n`);

  let args: PrintArgs;
  let pending: PendingFeatures;
  try {
    args = parsePrintArgs(argv);
    if (args.help) {
      await out.writeRaw(PRINT_HELP);
      return 0;
    }
    pending = acceptPendingFeatures(args, io.cwd);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    await note(`${e.message}\nRun gantry -p --help for the options.`);
    await err.flush();
    return 1;
  }
  for (const n of args.notes) await note(n);
  for (const w of pending.warnings) await note(`warning: ${w}`);
  // The shell grammar loads while settings, the model client and the first request get going, so
  // the first Bash call does not wait for it (a failure here is retried and reported by the call).
  if (io.preloadShellParser !== false)
    void import('../../shell/parser.js').then((m) => m.initShellParser()).catch(() => undefined);

  const sink = new OutputSink(out, err, {
    format: args.outputFormat,
    includePartialMessages: args.includePartialMessages,
  });
  const finish = async (code: number): Promise<number> => {
    await out.flush();
    await err.flush();
    return code;
  };

  // The text prompt is read before anything starts, so a bad pipe fails fast.
  let textPrompt: string | undefined;
  if (args.inputFormat === 'text') {
    let piped: string | undefined;
    if (!io.stdinIsTTY) {
      try {
        const r = await readStdinText(io.stdin, {
          havePrompt: args.prompt !== undefined,
          ...(io.stdinIdleMs !== undefined ? { idleMs: io.stdinIdleMs } : {}),
        });
        piped = r.text;
        if (r.timedOut) await note('no input arrived on stdin; going on with the prompt argument only');
      } catch (e) {
        if (!(e instanceof StdinTooLargeError)) throw e;
        await sink.failStart(e.message, args.sessionId ?? randomUUID());
        return finish(1);
      }
    }
    textPrompt = combinePrompt(args.prompt, piped);
    if (textPrompt === undefined) {
      await note('no prompt: pass one as an argument (gantry -p "…") or pipe it on stdin');
      return finish(1);
    }
  }

  let target: SessionTarget;
  let setup: AgentSetup;
  const home = io.home;
  try {
    const gantryHome = defaultGantryHome(home ?? homedir());
    target = resolveSessionTarget(
      {
        ...(args.sessionId !== undefined ? { sessionId: args.sessionId } : {}),
        continue: args.continue,
        ...(typeof args.resume === 'string' ? { resume: args.resume } : {}),
        forkSession: args.forkSession,
        noSessionPersistence: args.noSessionPersistence,
      },
      { cwd: io.cwd, gantryHome },
    );
    for (const n of target.notes) await note(n);
    setup = await createAgentSetup({
      cwd: io.cwd,
      ...(home !== undefined ? { home } : {}),
      env: io.env,
      ...(args.model !== undefined ? { model: args.model } : {}),
      ...(args.provider !== undefined ? { provider: args.provider } : {}),
      ...(args.permissionMode !== undefined ? { permissionMode: args.permissionMode } : {}),
      dangerouslySkipPermissions: args.dangerouslySkipPermissions,
      allowDangerouslySkipPermissions: args.allowDangerouslySkipPermissions,
      allowedTools: args.allowedTools,
      disallowedTools: args.disallowedTools,
      ...(args.tools !== undefined ? { tools: args.tools } : {}),
      addDirs: args.addDirs,
      settings: args.settings,
      ...(args.settingSources !== undefined ? { settingSources: args.settingSources } : {}),
      ...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
      ...(args.systemPromptFile !== undefined ? { systemPromptFile: args.systemPromptFile } : {}),
      ...(args.appendSystemPrompt !== undefined ? { appendSystemPrompt: args.appendSystemPrompt } : {}),
      ...(args.appendSystemPromptFile !== undefined
        ? { appendSystemPromptFile: args.appendSystemPromptFile }
        : {}),
      ...(args.maxThinkingTokens !== undefined ? { maxThinkingTokens: args.maxThinkingTokens } : {}),
      ...(args.thinking !== undefined ? { thinking: args.thinking } : {}),
      ...(target.transcriptPath ? { transcriptPath: target.transcriptPath } : {}),
    });
  } catch (e) {
    if (!(e instanceof SessionTargetError) && !(e instanceof AgentSetupError)) throw e;
    await sink.failStart(e.message, args.sessionId ?? randomUUID());
    return finish(1);
  }
  for (const w of setup.warnings) await note(`warning: ${w}`);

  const start = io.query ?? runQuery;
  try {
    if (args.inputFormat === 'stream-json') {
      const code = await runHostSession({ args, io, out, err, sink, setup, target, pending, start });
      return finish(code);
    }
    const options = baseQueryOptions(args, setup, target, pending, textPrompt as string);
    const q = start({ ...options, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
    for await (const event of q) {
      await sink.event(event);
      if (out.closed) {
        q.close();
        break;
      }
    }
    await sink.finish();
    return finish(sink.lastResult?.is_error ? 1 : 0);
  } finally {
    await setup.dispose();
  }
}
