/**
 * The resident hook server behind `gantry hook`'s warm path (hook-client.ts). It keeps the guard and
 * the shell parser loaded and answers one hook request per connection with exactly what the cold
 * path would print, and `gantry check` invocations forwarded by its client (check-server.ts).
 * Settings are re-read when a file changed (a changed settings file applies at once); only code and
 * the parser stay warm.
 *
 * Safety: the socket lives in a 0700 directory under the user's home, so only this user can connect
 * (a directory that is a symlink or belongs to someone else is refused; a socket planted there by
 * another user is removed);
 * a second server for the same socket exits at once; the server exits after `GANTRY_HOOK_DAEMON_IDLE_MS`
 * (default 30 minutes) without requests and removes its socket.
 */
import { chmodSync, lstatSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import {
  bundledWorker,
  configureShellAnalysis,
  initShellParser,
  stopShellAnalysisWorkers,
} from '../../shell/index.js';
import { type HookWireAnswer, type HookWireRequest, parseHookArgs } from './hook-client.js';
import { createGuard, type Guard, type GuardOptions } from '../shared/guard.js';
import { handleHook } from './run-hook.js';
import { createSourceVouch, type SourceVouch } from './source-vouch.js';

/** An absent file's stat without an exception (building one costs more than the stat itself). */
const IF_PRESENT = { throwIfNoEntry: false } as const;

/**
 * mtime+size of each file or directory ('-' when absent): a settings or trust file that changed
 * invalidates a guard. Runs on every request; most of the files are usually absent.
 */
export function stamp(files: readonly string[]): string {
  let out = '';
  for (const f of files) {
    let part = '-';
    try {
      const st = statSync(f, IF_PRESENT);
      if (st) part = `${st.mtimeMs}:${st.size}`;
    } catch {
      // not a directory on the way, unreadable: as absent
    }
    out = out ? `${out}|${part}` : part;
  }
  return out;
}

const guards = new Map<string, { guard: Guard; files: string[]; stamp: string }>();

/**
 * `createGuard`, reused while none of the files it read (settings files, trust records) changed:
 * a request then skips reading and compiling settings, and a changed file applies at the next call.
 */
export function cachedGuard(o: GuardOptions): Guard {
  const key = JSON.stringify(o);
  const hit = guards.get(key);
  if (hit && stamp(hit.files) === hit.stamp) return hit.guard;
  const guard = createGuard(o);
  const home = o.home ?? homedir();
  const files = [
    ...guard.settings.files.map((f) => f.file),
    // a managed file's drop-in directory (`<name>.d/`): a file added there changes its mtime
    ...guard.settings.files
      .filter((f) => f.source === 'managed')
      .map((f) => `${f.file.replace(/\.json$/, '')}.d`),
    path.join(home, '.claude.json'),
    path.join(home, '.gantry', 'trusted.json'),
  ];
  if (guards.size > 64) guards.clear();
  guards.set(key, { guard, files, stamp: stamp(files) });
  return guard;
}

const DEFAULT_IDLE_MS = 30 * 60_000;

/** Answers one wire request (never throws: errors become the same `ask` the cold path gives). */
export async function answerWireRequest(req: HookWireRequest): Promise<HookWireAnswer> {
  const args = parseHookArgs(Array.isArray(req.argv) ? req.argv.map(String) : []);
  const env = req.env && typeof req.env === 'object' ? req.env : {};
  return handleHook(String(req.stdin ?? ''), {
    ...(args.settingsFiles.length
      ? { settingsFiles: args.settingsFiles.map((f) => path.resolve(req.cwd, f)) }
      : {}),
    passAllow: args.passAllow,
    denyOnly: args.denyOnly,
    ...(args.errors.length ? { argErrors: args.errors } : {}),
    env,
    fallbackCwd: req.cwd,
    makeGuard: cachedGuard,
    ...(env.HOME ? { guard: { home: env.HOME } } : {}),
  });
}

/**
 * A forwarded `gantry check` (check-server.ts, loaded at the first one); undefined (the connection is
 * closed unanswered and the client checks in-process) for what the server does not answer.
 */
async function answerCheck(req: HookWireRequest): Promise<HookWireAnswer | undefined> {
  const { answerCheckRequest } = await import('../check-server.js');
  return answerCheckRequest(req, cachedGuard);
}

function isAlive(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(socketPath);
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/**
 * Runs the server until idle. Resolves when it has stopped.
 * @param analysisWorker - the built analysis worker file when running bundled (dist/); from the
 *   sources the worker of src/shell/worker is used. Bash analyses run in worker threads, so one slow
 *   analysis never holds up the other clients (docs/analysis-budget.md).
 * @param packageRoot - the folder the running bundle belongs to (holding dist/); when it is a git
 *   checkout, hook answers to clients from it say whether its sources still match dist/
 *   (source-vouch.ts), so those clients skip their own comparison.
 */
export async function runHookDaemon(
  socketPath: string,
  idleMs = Number(process.env.GANTRY_HOOK_DAEMON_IDLE_MS) || DEFAULT_IDLE_MS,
  analysisWorker?: URL,
  packageRoot?: string,
): Promise<void> {
  const dir = path.dirname(socketPath);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Serve only from a directory of our own (a symlink or another user's directory is refused: the
  // clients would refuse it too); tighten its mode, then remove a socket someone else put there.
  const euid = process.geteuid?.();
  const d = lstatSync(dir);
  if (!d.isDirectory() || (euid !== undefined && d.uid !== euid)) return;
  chmodSync(dir, 0o700);
  try {
    const s = lstatSync(socketPath);
    if (euid !== undefined && s.uid !== euid) unlinkSync(socketPath);
  } catch {
    // no socket yet
  }
  if (await isAlive(socketPath)) return; // another server already answers here
  try {
    unlinkSync(socketPath); // a stale socket left by a killed server
  } catch {
    // none
  }
  await initShellParser();
  configureShellAnalysis({ workers: analysisWorker ? { worker: bundledWorker(analysisWorker) } : true });
  const vouch: SourceVouch | undefined = packageRoot ? createSourceVouch(packageRoot) : undefined;
  /** A hook answer, with the vouch for the client's checkout when it asked for one. */
  const answerHook = async (req: HookWireRequest): Promise<HookWireAnswer> => {
    if (typeof req.checkout !== 'string') return answerWireRequest(req);
    const [answer, current] = await Promise.all([
      answerWireRequest(req),
      vouch ? vouch.current(req.checkout) : false,
    ]);
    return { ...answer, sourcesCurrent: current };
  };
  let idle: NodeJS.Timeout;
  // allowHalfOpen: the client ends its side after the request and still reads the answer.
  const server = createServer({ allowHalfOpen: true }, (sock: Socket) => {
    idle.refresh();
    let data = '';
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      data += chunk;
    });
    sock.on('end', () => {
      let req: HookWireRequest | undefined;
      try {
        req = JSON.parse(data) as HookWireRequest;
      } catch {
        req = undefined;
      }
      if (!req) {
        sock.destroy();
        return;
      }
      const answer = req.kind === 'check' ? answerCheck(req) : answerHook(req);
      answer.then(
        (a) => (a ? sock.end(JSON.stringify(a)) : sock.destroy()),
        () => sock.destroy(),
      );
    });
    sock.on('error', () => sock.destroy());
  });
  const stopped = new Promise<void>((resolve) => server.on('close', resolve));
  idle = setTimeout(() => server.close(), idleMs);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  const stop = (): void => {
    server.close();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await stopped;
  vouch?.close();
  try {
    unlinkSync(socketPath);
  } catch {
    // already gone
  }
  await stopShellAnalysisWorkers();
}
