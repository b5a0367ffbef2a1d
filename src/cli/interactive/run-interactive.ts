/**
 * Interactive `gantry` (no `-p`, on a terminal): one session, a prompt line, the model's streamed
 * answer, tool calls with live progress and a permission prompt for every ask
 * (docs/cli-interactive.md).
 *
 *   flags (the agent command line, as `gantry -p` reads it) → the shared session start
 *   (session target, settings, engine, model client, tools, transcript) → one `query()` fed by an
 *   input queue → per prompt: push it, render events until its `result`, prompt again.
 *
 * Ctrl-C while a turn runs interrupts it (every tool_use still gets its result; the transcript
 * keeps what happened) and arms exit; Ctrl-C (or Escape) at the prompt line arms exit; a second
 * Ctrl-C while armed exits. Submitting a prompt disarms. `/exit` (or `/quit`) exits too.
 *
 * Returns the exit code: 0 after a normal exit, 1 for a usage or start-up error (on stderr).
 */
import { isCancel, text } from '@clack/prompts';
import type { Readable, Writable } from 'node:stream';
import { createInputQueue } from '../../loop/input-queue.js';
import { query as runQuery } from '../../loop/query.js';
import type { Query, QueryOptions, ResultEvent } from '../../loop/types.js';
import { GANTRY_VERSION } from '../../loop/version.js';
import { type PrintArgs, parsePrintArgs, UsageError } from '../print/args.js';
import { acceptPendingFeatures } from '../print/pending-features.js';
import { AgentSetupError } from '../session/agent-setup.js';
import { type OpenedSession, openSession, sessionQueryOptions } from '../session/open-session.js';
import { SessionTargetError } from '../session/session-target.js';
import { EventView } from './event-view.js';
import { INTERACTIVE_HELP } from './help.js';
import { approveProjectServers } from './mcp-approval.js';
import { interactiveCanUseTool } from './permission-prompt.js';
import { Screen } from './screen.js';

export interface InteractiveIo {
  /** A terminal (raw mode is used by the prompts). */
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  home?: string;
  /** Colours on. */
  color: boolean;
  /** Registers the Ctrl-C handler (SIGINT while no prompt is open); returns the unsubscribe. */
  onInterrupt: (handler: () => void) => () => void;
  /** Start `query` (tests may wrap it); default the loop's. */
  query?: (options: QueryOptions) => Query;
}

interface Waiter {
  resolve: (r: ResultEvent | undefined) => void;
}

export async function runInteractive(argv: readonly string[], io: InteractiveIo): Promise<number> {
  const fail = (text: string): number => {
    io.stderr.write(`gantry: ${text}\n`);
    return 1;
  };
  let args: PrintArgs;
  let agentsJson: string | undefined;
  try {
    args = parsePrintArgs(argv);
    agentsJson = acceptPendingFeatures(args, io.cwd).agentsJson;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return fail(`${e.message}\nRun gantry --help for the options.`);
  }
  if (args.help) {
    io.stdout.write(INTERACTIVE_HELP);
    return 0;
  }
  for (const n of args.notes) io.stderr.write(`gantry: ${n}\n`);
  if (args.resume === true) {
    io.stderr.write('gantry: --resume without an id: continuing the most recent session of this folder\n');
    args = { ...args, resume: undefined, continue: true };
  }
  void import('../../shell/parser.js').then((m) => m.initShellParser()).catch(() => undefined);

  let opened: OpenedSession;
  try {
    opened = await openSession(
      args,
      {
        cwd: io.cwd,
        env: io.env,
        ...(io.home !== undefined ? { home: io.home } : {}),
      },
      undefined,
      // Interactive: the project's MCP servers wait for the person's approval (mcp-approval.ts).
      { interactive: true, ...(agentsJson !== undefined ? { agentsJson } : {}) },
    );
  } catch (e) {
    if (!(e instanceof SessionTargetError) && !(e instanceof AgentSetupError)) throw e;
    return fail(e.message);
  }
  const { setup, target } = opened;
  for (const n of target.notes) io.stderr.write(`gantry: ${n}\n`);
  for (const w of setup.warnings) io.stderr.write(`gantry: warning: ${w}\n`);

  const screen = new Screen(io.stdout, io.color);
  const view = new EventView(screen);
  const queue = createInputQueue();
  const canUseTool = interactiveCanUseTool({
    screen,
    engine: setup.engine,
    input: io.stdin,
    output: io.stdout,
    planFile: setup.planFile(target.sessionId),
    bypassAvailable: setup.bypassAvailable,
    color: io.color,
  });
  const start = io.query ?? runQuery;
  const q = start({
    ...sessionQueryOptions(args, opened, queue),
    includePartialMessages: true,
    canUseTool,
  });

  screen.line(
    `${screen.style('bold', `Gantry ${GANTRY_VERSION}`)} ${screen.style('dim', `· ${setup.model} · ${setup.permissionMode} mode · ${setup.cwd}`)}`,
  );
  screen.line(
    screen.style(
      'dim',
      `${target.kind === 'new' ? 'New session' : `Session ${target.kind === 'fork' ? 'forked' : 'resumed'}`} ${target.sessionId}. Enter sends a prompt; Ctrl-C interrupts, twice exits; /exit quits.`,
    ),
  );
  // The project's MCP servers start only once the person approved them (mcp-approval.ts).
  await approveProjectServers({
    screen,
    input: io.stdin,
    output: io.stdout,
    // A copy: each answer takes the server off the manager's pending list.
    pending: [...setup.mcp.pendingApproval()],
    answer: (name, approved) => setup.answerMcpApproval(name, approved),
  });

  let waiter: Waiter | undefined;
  let turnRunning = false;
  let armed = false;
  let exiting = false;
  let wakeExit: (() => void) | undefined;
  const exitRequested = new Promise<void>((resolve) => {
    wakeExit = resolve;
  });
  const requestExit = (): void => {
    exiting = true;
    wakeExit?.();
  };

  const consumer = (async () => {
    try {
      for await (const event of q) {
        const r = view.show(event);
        if (r && waiter) {
          const w = waiter;
          waiter = undefined;
          w.resolve(r);
        }
      }
    } catch (e) {
      screen.line(screen.style('red', `The session failed: ${(e as Error).message}`));
    } finally {
      screen.clearSpinner();
      waiter?.resolve(undefined);
      waiter = undefined;
      requestExit();
    }
  })();

  const unsubscribe = io.onInterrupt(() => {
    if (armed || !turnRunning) {
      if (armed) requestExit();
      else {
        armed = true;
        screen.line(screen.style('dim', 'Press Ctrl-C again to exit.'));
      }
      return;
    }
    armed = true;
    screen.line(screen.style('yellow', 'Interrupting… (Ctrl-C again to exit)'));
    void q.interrupt();
  });

  let pending = args.prompt;
  try {
    while (!exiting) {
      let prompt: string;
      if (pending !== undefined) {
        prompt = pending;
        pending = undefined;
        screen.line(`${screen.style('cyan', '>')} ${prompt}`);
      } else {
        const value = await Promise.race([
          text({ message: 'Prompt', placeholder: 'ask Gantry', input: io.stdin, output: io.stdout }),
          exitRequested.then(() => undefined),
        ]);
        if (exiting || value === undefined) break;
        if (isCancel(value)) {
          if (armed) break;
          armed = true;
          screen.line(screen.style('dim', 'Press Ctrl-C again to exit.'));
          continue;
        }
        prompt = value;
      }
      const trimmed = prompt.trim();
      if (trimmed === '') continue;
      if (trimmed === '/exit' || trimmed === '/quit') break;
      armed = false;
      const done = new Promise<ResultEvent | undefined>((resolve) => {
        waiter = { resolve };
      });
      turnRunning = true;
      view.startTurn();
      queue.push(prompt);
      await Promise.race([done, exitRequested]);
      turnRunning = false;
    }
  } finally {
    unsubscribe();
    screen.clearSpinner();
    queue.close();
    if (turnRunning) q.close();
    await consumer;
    await setup.dispose();
  }
  screen.line(screen.style('dim', `Bye. Resume with: gantry --resume ${target.sessionId}`));
  return 0;
}
