/**
 * `gantry mcp`: serve the built-in tools over MCP with the permission engine in front.
 *
 *   gantry mcp [--cwd DIR] [--mode MODE] [--settings FILE]… [--transport stdio|http] [--port N]
 *              [--on-ask deny|allow] [--max-message-bytes N]
 *              [--session-idle-ms N] [--max-sessions N] [--auth-token TOKEN]
 *
 * stdio is the default; `--transport http` listens on 127.0.0.1:`--port` (default 0 = any free
 * port; the URL is printed on stderr). `--auth-token` (or `GANTRY_MCP_TOKEN`) makes HTTP clients
 * send `Authorization: Bearer <token>`.
 *
 * Lifetime (docs/reliability.md "Process lifetime"): stdio ends on end of input; both transports
 * end on SIGTERM, SIGINT or SIGHUP. Either way the running calls are aborted, every process group
 * the server started (foreground commands, what they left behind, background tasks) is stopped,
 * the sandbox is disposed, and the process exits 0. A second signal during that SIGKILLs what is
 * left and exits 1 at once. An HTTP port it cannot listen on (in use, permission denied) is one
 * line on stderr and exit 1.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { PERMISSION_MODES, type PermissionMode } from '../core/index.js';
import { serveHttp, serveStdio } from '../mcp/server/transports.js';
import { assembleToolPool } from '../runtime/index.js';
import { createSandboxManager, type SandboxManager } from '../sandbox/index.js';
import { configureShellAnalysis, shellAnalysisSummary, stopShellAnalysisWorkers } from '../shell/index.js';
import { stopAllProcessGroups } from '../tools/bash/exec.js';
import { removeStaleTempFiles } from '../tools/file-io/atomic-write.js';
import { pruneSessionDirs, sessionDirFor, sessionsRoot } from '../tools/file-io/session-files.js';
import { getAllBaseTools } from '../tools/index.js';
import { listenFailure } from './listen-error.js';
import { createGuard, explicitSettingsErrors } from './shared/guard.js';

export interface McpCliOptions {
  cwd?: string;
  mode?: string;
  settings?: string[];
  transport?: string;
  port?: string;
  onAsk?: string;
  trust?: boolean;
  maxMessageBytes?: string;
  sessionIdleMs?: string;
  maxSessions?: string;
  authToken?: string;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** A positive integer option, or undefined when absent; NaN marks a bad value. */
function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : Number.NaN;
}

/** Starts the server; resolves when a stdio session ends (HTTP keeps running). Returns an exit code. */
export async function runMcp(o: McpCliOptions, version: string): Promise<number> {
  const fail = (m: string): number => {
    process.stderr.write(`gantry mcp: ${m}\n`);
    return 3;
  };
  if (o.mode && !PERMISSION_MODES.includes(o.mode as PermissionMode)) return fail(`unknown --mode ${o.mode}`);
  // A port only means something over HTTP: `--port` alone implies it, `--transport stdio --port` is an error.
  const transport = o.transport ?? (o.port !== undefined ? 'http' : 'stdio');
  if (transport !== 'stdio' && transport !== 'http') return fail('--transport must be stdio or http');
  if (transport === 'stdio' && o.port !== undefined)
    return fail('--port needs --transport http (stdio has no port)');
  const onAsk = o.onAsk ?? 'deny';
  if (onAsk !== 'deny' && onAsk !== 'allow') return fail('--on-ask must be deny or allow');
  const port = o.port === undefined ? 0 : Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`bad --port ${o.port}`);
  const maxMessageBytes = positiveInt(o.maxMessageBytes);
  const sessionIdleMs = positiveInt(o.sessionIdleMs);
  const maxSessions = positiveInt(o.maxSessions);
  for (const [flag, v] of [
    ['--max-message-bytes', maxMessageBytes],
    ['--session-idle-ms', sessionIdleMs],
    ['--max-sessions', maxSessions],
  ] as const)
    if (Number.isNaN(v)) return fail(`${flag} must be a positive integer`);
  const authToken = o.authToken ?? process.env.GANTRY_MCP_TOKEN;
  if (authToken !== undefined && authToken.length < 16)
    return fail('the auth token must be at least 16 characters');

  const cwd = path.resolve(o.cwd ?? process.cwd());
  let cwdIsDir = false;
  try {
    cwdIsDir = statSync(cwd).isDirectory();
  } catch {
    return fail(`--cwd ${cwd} does not exist`);
  }
  if (!cwdIsDir) return fail(`--cwd ${cwd} is not a directory`);
  // Spilled results go here; the engine lets Read reach them without asking. Old
  // session directories and temp files of killed writers are cleaned up at start
  // (docs/reliability.md "Retention", "Temp files").
  const sessionDir = sessionDirFor(`mcp-${randomUUID()}`);
  void pruneSessionDirs(sessionsRoot(), { keep: sessionDir });
  void removeStaleTempFiles(cwd);
  const guard = createGuard({
    cwd,
    readableDirectories: [sessionDir],
    ...(o.settings ? { settingsFiles: o.settings } : {}),
    ...(o.mode ? { mode: o.mode } : {}),
    ...(o.trust !== undefined ? { trust: o.trust } : {}),
  });
  const broken = explicitSettingsErrors(guard.settings, o.settings);
  if (broken.length) return fail(broken.map((p) => `${p.file}: ${p.message}`).join('; '));
  for (const p of guard.settings.problems)
    process.stderr.write(`settings ${p.severity}: ${p.file ?? ''} ${p.message}\n`);
  // Bash analyses run in worker threads, so a slow one never delays another session's calls, and
  // stop at the deadline (docs/analysis-budget.md).
  configureShellAnalysis({
    workers: true,
    ...(guard.settings.analysisDeadlineMs !== undefined
      ? { deadlineMs: guard.settings.analysisDeadlineMs }
      : {}),
  });
  process.stderr.write(`gantry mcp: Bash analysis ${shellAnalysisSummary()}\n`);
  // The Bash sandbox, when settings enable it (the Claude Code sandboxing docs): one manager per server process.
  const sandbox: SandboxManager | undefined = guard.settings.sandbox.enabled
    ? createSandboxManager({
        settings: guard.settings.sandbox,
        workingDirectories: () => [cwd, ...guard.settings.additionalDirectories],
      })
    : undefined;
  // The tool pool: isEnabled, bare deny rules (names and aliases), a fixed order.
  const tools = assembleToolPool({
    builtIn: await getAllBaseTools(sandbox ? { bashSandbox: sandbox } : {}),
    isDenied: (name) => guard.engine.isToolDenied(name),
  }).callable;
  const options = {
    tools,
    cwd,
    additionalDirectories: guard.settings.additionalDirectories,
    mode: guard.mode,
    decide: guard.engine.decider,
    onAsk: onAsk as 'deny' | 'allow',
    name: 'gantry',
    version,
    sessionDir,
  };
  // Shutdown (after every session's services were disposed, which stops their background tasks):
  // stop every process group still listed (in-flight foreground commands, what they left behind),
  // then the sandbox. The interval keeps the event loop alive meanwhile.
  const shutdown = async (): Promise<void> => {
    const keepAlive = setInterval(() => undefined, 1000);
    try {
      await stopAllProcessGroups();
      await Promise.all([sandbox?.dispose(), stopShellAnalysisWorkers()]);
    } finally {
      clearInterval(keepAlive);
    }
  };
  const stopping = new AbortController();
  const onSignal = (): void => {
    if (stopping.signal.aborted) process.exit(1); // second signal: the exit hooks SIGKILL what is left
    stopping.abort();
  };
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);

  if (transport === 'stdio') {
    await serveStdio(options, {
      signal: stopping.signal,
      ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
    });
    await shutdown();
    process.exit(0);
  }
  let server: Awaited<ReturnType<typeof serveHttp>>;
  try {
    server = await serveHttp(options, port, {
      ...(sessionIdleMs !== undefined ? { sessionIdleMs } : {}),
      ...(maxSessions !== undefined ? { maxSessions } : {}),
      ...(authToken !== undefined ? { authToken } : {}),
    });
  } catch (e) {
    // Port in use, permission denied: one line, then the same shutdown as after a signal (the
    // analysis workers and the sandbox would otherwise keep the process up with nothing to serve).
    process.stderr.write(`gantry mcp: ${listenFailure(e, '127.0.0.1', port)}\n`);
    await shutdown();
    process.exit(1);
  }
  process.stderr.write(
    `gantry mcp listening on ${server.url}${authToken ? ' (bearer token required)' : ''}\n`,
  );
  stopping.signal.addEventListener(
    'abort',
    () => {
      server
        .close()
        .then(shutdown)
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    },
    { once: true },
  );
  return 0;
}
