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
import type { Readable, Writable } from 'node:stream';
import { query as runQuery } from '../../loop/query.js';
import type { Query, QueryOptions, QueryPrompt } from '../../loop/types.js';
import { type AgentSetup, AgentSetupError } from '../session/agent-setup.js';
import { openSession, sessionQueryOptions } from '../session/open-session.js';
import { type SessionTarget, SessionTargetError } from '../session/session-target.js';
import { type PrintArgs, parsePrintArgs, UsageError } from './args.js';
import { ElicitationRoute } from './elicitation.js';
import { PRINT_HELP } from './help.js';
import { runHostSession } from './host-session.js';
import { LineWriter } from './line-writer.js';
import { OutputSink } from './output.js';
import { acceptPendingFeatures, type PendingFeatures } from './pending-features.js';
import { combinePrompt, readStdinText, StdinTooLargeError } from './stdin-prompt.js';
import { OutputSchemaError, parseOutputSchema, StructuredOutput } from './structured-output.js';

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
  /** Interval of keep-alive lines on stream-json input (ms; 0 = none; default `GANTRY_KEEP_ALIVE_MS` or 10 s). */
  keepAliveIntervalMs?: number;
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
  return sessionQueryOptions(args, { setup, target }, prompt, pending.mcpServers);
}

/** `--json-schema`'s value as the session's structured output; a bad schema is a usage error. */
function structuredOutputFlag(value: string | undefined): StructuredOutput | undefined {
  if (value === undefined) return undefined;
  try {
    return new StructuredOutput(parseOutputSchema(value));
  } catch (e) {
    if (e instanceof OutputSchemaError) throw new UsageError(`--json-schema: ${e.message}`);
    throw e;
  }
}

/** Runs print mode; resolves with the exit code. Never throws for bad input. */
export async function runPrint(argv: readonly string[], io: PrintIo): Promise<number> {
  const err = new LineWriter(io.stderr);
  const out = new LineWriter(io.stdout);
  const note = (text: string): Promise<void> => err.writeRaw(`gantry: ${text}\n`);

  let args: PrintArgs;
  let pending: PendingFeatures;
  let structured: StructuredOutput | undefined;
  try {
    args = parsePrintArgs(argv);
    if (args.help) {
      await out.writeRaw(PRINT_HELP);
      return 0;
    }
    pending = acceptPendingFeatures(args, io.cwd);
    structured = structuredOutputFlag(args.jsonSchema);
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
  // MCP servers connect now; their questions reach the host once the host session runs (else: declined).
  const elicitation = new ElicitationRoute();
  try {
    ({ target, setup } = await openSession(
      args,
      { cwd: io.cwd, env: io.env, ...(io.home !== undefined ? { home: io.home } : {}) },
      async (t) => {
        for (const n of t.notes) await note(n);
      },
      {
        ...(pending.agentsJson !== undefined ? { agentsJson: pending.agentsJson } : {}),
        elicit: elicitation.handler,
      },
    ));
    pending.mcpServers.push(
      ...setup.mcp.reports().map((r) => ({
        name: r.name,
        status: r.status,
        source: r.source,
        ...(r.error ? { error: r.error } : {}),
      })),
    );
  } catch (e) {
    if (!(e instanceof SessionTargetError) && !(e instanceof AgentSetupError)) throw e;
    await sink.failStart(e.message, args.sessionId ?? randomUUID());
    return finish(1);
  }
  for (const w of setup.warnings) await note(`warning: ${w}`);

  const start = io.query ?? runQuery;
  try {
    if (args.inputFormat === 'stream-json') {
      const code = await runHostSession({
        args,
        io,
        out,
        err,
        sink,
        setup,
        target,
        pending,
        start,
        elicitation,
        ...(structured ? { structured } : {}),
      });
      return finish(code);
    }
    const base = baseQueryOptions(args, setup, target, pending, textPrompt as string);
    const options = structured ? structured.apply(base) : base;
    const q = start({ ...options, ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}) });
    structured?.attach(q);
    for await (const raw of q) {
      const event = structured ? structured.observe(raw) : raw;
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
