/**
 * The warm path of `gantry hook` (start-up time is the product). A resident hook server
 * (hook-daemon.ts) keeps the guard and the shell parser loaded; each hook invocation is then a tiny
 * client that forwards its stdin over a Unix socket and prints the answer. This file must stay
 * small: it imports only Node built-ins (not `node:child_process`: starting a server is in
 * hook-spawn.ts, loaded on the cold path), and the guard is loaded only when the server is absent.
 *
 * Socket: `~/.gantry/run/hook-<build>.sock`, in a 0700 directory (only this user can connect). The
 * build id comes from the bundle file's size and mtime, so a rebuilt Gantry never talks to an old
 * server. `GANTRY_HOOK_DAEMON=0` turns the warm path off (always in-process).
 *
 * Trust (docs/reliability.md "The hook trusts only its own server"): the answer of whatever listens
 * on the socket is printed as the decision, so the client first checks who could have put it there.
 * The run directory is opened without following a symlink and must belong to this user (effective
 * uid) with no permission bits for group or others; the socket inside it must be a socket owned by
 * this user. The connection then goes through the opened directory (`/proc/self/fd/<fd>/<name>` on
 * Linux), so the directory cannot be swapped between the check and the connect. Node does not expose
 * the peer's credentials (`SO_PEERCRED`), so the directory check is what keeps other users out: in a
 * 0700 directory only this user (or root) can create a socket. When any check fails the caller
 * decides in-process and the reason is written to the hook log.
 *
 * Fail closed, never stuck: a missing server, a refused connection, a malformed answer or no answer
 * within `GANTRY_HOOK_DAEMON_TIMEOUT_MS` (default 3 s) makes the caller decide in-process instead.
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openOwnedDir } from '../owned-dir.js';

export interface HookWireRequest {
  /** `check`: a `gantry check` invocation (check-server.ts; `argv` are the words after `check`). Default: a hook call. */
  kind?: 'hook' | 'check';
  stdin: string;
  argv: string[];
  /** The caller's environment entries the decision depends on. */
  env: Record<string, string>;
  cwd: string;
  /**
   * The git checkout the client runs from (bin/gantry.js's folder), when it wants the server to
   * vouch that its sources still match dist/ (source-vouch.ts) instead of comparing them itself.
   */
  checkout?: string;
}

export interface HookWireAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** True when the server vouches that the request's `checkout` is its own and its sources match dist/. */
  sourcesCurrent?: boolean;
}

/** Environment variables a decision reads (forwarded to the server per request). */
export const FORWARDED_ENV = [
  'HOME',
  'CLAUDE_PROJECT_DIR',
  'GANTRY_HOOK_LOG',
  'GANTRY_ANALYSIS_DEADLINE_MS',
  'GANTRY_TRUST_PROJECT',
  'GANTRY_HOST',
  'GANTRY_HOOK_LOG_MAX_BYTES',
] as const;

/** Parses the hook's own flags. Unknown flags are ignored (a host may pass extra words). */
export function parseHookArgs(argv: readonly string[]): {
  settingsFiles: string[];
  passAllow: boolean;
  /** `--deny-only`: emit only deny decisions (hosts that cannot take allow or ask from a hook: Codex). */
  denyOnly: boolean;
  /** Arguments that are not options of `gantry hook` (the hook then answers ask; it fails closed). */
  errors: string[];
} {
  const settingsFiles: string[] = [];
  const errors: string[] = [];
  let passAllow = false;
  let denyOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--settings') {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) errors.push('--settings needs a file');
      else settingsFiles.push(argv[++i] as string);
    } else if (a.startsWith('--settings=')) settingsFiles.push(a.slice('--settings='.length));
    else if (a === '--pass-allow') passAllow = true;
    else if (a === '--deny-only') denyOnly = true;
    else errors.push(`unknown argument ${a}`);
  }
  return { settingsFiles, passAllow, denyOnly, errors };
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

/**
 * All of stdin as UTF-8. A blocking read of fd 0 first: it needs no stream (the stream machinery is
 * a noticeable part of a warm call's start). A descriptor that cannot be read that way (`EAGAIN` on a
 * non-blocking pipe, a closed or odd descriptor) is read through `process.stdin` instead.
 */
export async function readAllStdin(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
}

/**
 * Whether the socket at `socketPath` may be trusted:
 * - `trusted`: connect to `connectPath` (through the checked directory), then `release()`;
 * - `absent`: no run directory or no socket yet (the normal first call; nothing to log);
 * - `refused`: something is there that another user could have planted; `reason` says what.
 */
export type SocketTrust =
  | { kind: 'trusted'; connectPath: string; release(): void }
  | { kind: 'absent' }
  | { kind: 'refused'; reason: string };

/** Checks the run directory and the socket (see the module comment). Never throws. */
export function checkSocketTrust(
  socketPath: string,
  euid: number | undefined = process.geteuid?.(),
): SocketTrust {
  const dir = path.dirname(socketPath);
  const opened = openOwnedDir(dir, euid, 'other users could plant a socket there');
  if (opened.kind !== 'trusted') return opened;
  const { release } = opened;
  try {
    const viaFd = opened.via(path.basename(socketPath));
    let s: ReturnType<typeof lstatSync>;
    try {
      s = lstatSync(viaFd);
    } catch {
      release();
      return { kind: 'absent' };
    }
    if (!s.isSocket()) {
      release();
      return { kind: 'refused', reason: `${socketPath} is not a socket` };
    }
    if (euid !== undefined && s.uid !== euid) {
      release();
      return {
        kind: 'refused',
        reason: `${socketPath} belongs to uid ${s.uid}, not to this user (uid ${euid})`,
      };
    }
    return { kind: 'trusted', connectPath: viaFd, release };
  } catch (error) {
    release();
    return { kind: 'refused', reason: `checking ${dir} failed (${(error as Error).message})` };
  }
}

/**
 * Sends one request; resolves undefined when the server is absent, untrusted (`onRefused` is told
 * why), slow or answers nonsense.
 */
export async function askDaemon(
  socketPath: string,
  request: HookWireRequest,
  timeoutMs: number,
  onRefused: (reason: string) => void = () => undefined,
): Promise<HookWireAnswer | undefined> {
  const trust = checkSocketTrust(socketPath);
  if (trust.kind === 'refused') onRefused(trust.reason);
  if (trust.kind !== 'trusted') return undefined;
  try {
    return await exchange(trust.connectPath, request, timeoutMs);
  } finally {
    trust.release();
  }
}

function exchange(
  connectPath: string,
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
    const sock = connect(connectPath);
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

/** The bundle file this module was loaded from. */
export function currentBundleFile(metaUrl: string): string {
  return fileURLToPath(metaUrl);
}
