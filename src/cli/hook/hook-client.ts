/**
 * The warm path of `gantry hook` (issue 7: start-up time is the product). A resident hook server
 * (hook-daemon.ts) keeps the guard and the shell parser loaded; each hook invocation is then a tiny
 * client that forwards its stdin over a Unix socket and prints the answer. This file must stay
 * small: it imports only Node built-ins, and the guard is loaded only when the server is absent.
 *
 * Socket: `~/.gantry/run/hook-<build>.sock`, in a 0700 directory (only this user can connect). The
 * build id comes from the bundle file's size and mtime, so a rebuilt Gantry never talks to an old
 * server. `GANTRY_HOOK_DAEMON=0` turns the warm path off (always in-process).
 *
 * Fail closed, never stuck: a missing server, a refused connection, a malformed answer or no answer
 * within `GANTRY_HOOK_DAEMON_TIMEOUT_MS` (default 3 s) makes the caller decide in-process instead.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface HookWireRequest {
  stdin: string;
  argv: string[];
  /** The caller's environment entries the decision depends on. */
  env: Record<string, string>;
  cwd: string;
}

export interface HookWireAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Environment variables a decision reads (forwarded to the server per request). */
export const FORWARDED_ENV = ['HOME', 'CLAUDE_PROJECT_DIR', 'GANTRY_HOOK_LOG'] as const;

/** Parses the hook's own flags. Unknown flags are ignored (a host may pass extra words). */
export function parseHookArgs(argv: readonly string[]): { settingsFiles: string[]; passAllow: boolean } {
  const settingsFiles: string[] = [];
  let passAllow = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--settings' && argv[i + 1]) settingsFiles.push(argv[++i] as string);
    else if (a?.startsWith('--settings=')) settingsFiles.push(a.slice('--settings='.length));
    else if (a === '--pass-allow') passAllow = true;
  }
  return { settingsFiles, passAllow };
}

/** True unless `GANTRY_HOOK_DAEMON` is `0`/`off`/`false`. */
export function daemonEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env.GANTRY_HOOK_DAEMON;
  return !(v === '0' || v === 'off' || v === 'false');
}

/** `~/.gantry/run/hook-<build>.sock` for the bundle at `bundleFile`. */
export function socketPathFor(bundleFile: string, env: Readonly<Record<string, string | undefined>>): string {
  let build = 'dev';
  try {
    const s = statSync(bundleFile);
    build = `${s.size.toString(36)}${Math.floor(s.mtimeMs).toString(36)}`;
  } catch {
    // no bundle file: a development run; one socket name is fine
  }
  return path.join(env.HOME || homedir(), '.gantry', 'run', `hook-${build}.sock`);
}

/** Sends one request; resolves undefined when the server is absent, slow or answers nonsense. */
export function askDaemon(
  socketPath: string,
  request: HookWireRequest,
  timeoutMs: number,
): Promise<HookWireAnswer | undefined> {
  return new Promise((resolve) => {
    let done = false;
    let data = '';
    const finish = (answer: HookWireAnswer | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(answer);
    };
    const sock = connect(socketPath);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    sock.setEncoding('utf8');
    sock.on('error', () => finish(undefined));
    sock.on('connect', () => sock.end(`${JSON.stringify(request)}\n`));
    sock.on('data', (chunk: string) => {
      data += chunk;
    });
    sock.on('end', () => {
      try {
        const a = JSON.parse(data) as HookWireAnswer;
        const ok =
          typeof a.stdout === 'string' && typeof a.stderr === 'string' && Number.isInteger(a.exitCode);
        finish(ok ? a : undefined);
      } catch {
        finish(undefined);
      }
    });
  });
}

/** Starts the hook server in the background for the next invocations (detached; never awaited). */
export function spawnDaemon(bundleFile: string, socketPath: string): void {
  try {
    mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
    const child = spawn(process.execPath, [bundleFile, '--hook-daemon', socketPath], {
      detached: true,
      stdio: 'ignore',
      env: process.env,
    });
    child.unref();
  } catch {
    // The warm path is an optimisation; the in-process answer was already given.
  }
}

/** The bundle file this module was loaded from. */
export function currentBundleFile(metaUrl: string): string {
  return fileURLToPath(metaUrl);
}
