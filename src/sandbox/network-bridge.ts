/**
 * The network namespace sandboxed commands share, and the bridge from its loopback to the proxy
 * ("inside: socat TCP-LISTEN:3128 on 127.0.0.1 → UNIX socket").
 *
 * Why a holder: the sandboxed command may not create AF_UNIX sockets (seccomp.ts), so socat cannot
 * run under the command's own seccomp filter. Instead one long-lived "holder" per session owns a
 * private network namespace (lo only) in which socat listens on 127.0.0.1:3128 and forwards each
 * connection to the proxy's Unix socket on the host. Each command then joins that namespace
 * (`nsenter --target <holder> --user --net`) before bubblewrap builds its own mount/pid/ipc/uts
 * namespaces and applies the seccomp filter. Side benefit: no network namespace is created per
 * command (a few ms saved), and sandboxed commands of one session can reach each other's loopback
 * servers (when `allowLocalBinding` lets them listen).
 *
 * Sequence: spawn `bwrap --unshare-user --uid 0 --gid 0 --unshare-net --unshare-pid
 * --die-with-parent --info-fd 3 -- socat -d -d TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr
 * UNIX-CONNECT:<socket>` → read the holder's pid from the info fd → wait for socat's "listening on"
 * line → ready. The holder maps only our uid (as 0) so that a non-root user can later join its user
 * namespace and, with it, its network namespace. It dies with this process (`--die-with-parent`)
 * and is killed by {@link NetworkBridge.close}.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Port socat listens on inside the sandbox's loopback. */
export const SANDBOX_PROXY_PORT = 3128;

export interface NetworkBridge {
  /** Host pid of a process inside the shared namespaces (for nsenter). */
  readonly holderPid: number;
  /** Arguments that run a program inside the shared user + network namespaces: `[nsenter, …]`. */
  readonly enterPrefix: string[];
  /** False once the holder died (the next command starts a new one). */
  alive(): boolean;
  close(): Promise<void>;
}

export interface StartBridgeOptions {
  bwrapPath: string;
  socatPath: string;
  nsenterPath: string;
  /** The proxy's Unix socket on the host. */
  proxySocketPath: string;
  /** How long to wait for the holder to be ready, ms. */
  readyTimeoutMs?: number;
}

function readUntil(stream: Readable, test: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString();
      if (test(text)) {
        stream.off('data', onData);
        resolve(text);
      }
    };
    stream.on('data', onData);
    stream.once('end', () =>
      reject(new Error(`stream ended before it was ready: ${text.trim().slice(0, 300)}`)),
    );
  });
}

/** Starts the holder; rejects (and kills it) when it is not ready in time. */
export async function startNetworkBridge(options: StartBridgeOptions): Promise<NetworkBridge> {
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--unshare-user',
    '--uid',
    '0',
    '--gid',
    '0',
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--die-with-parent',
    '--new-session',
    '--info-fd',
    '3',
    '--',
    options.socatPath,
    '-d',
    '-d',
    `TCP-LISTEN:${SANDBOX_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr`,
    `UNIX-CONNECT:${options.proxySocketPath}`,
  ];
  const child: ChildProcess = spawn(options.bwrapPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
    child.once('error', () => {
      exited = true;
      resolve();
    });
  });
  const info = child.stdio[3] as Readable;
  const stderr = child.stderr as Readable;
  let stderrText = '';
  stderr.on('data', (d: Buffer) => {
    if (stderrText.length < 4000) stderrText += d.toString();
  });
  const timeoutMs = options.readyTimeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const ready = Promise.all([
      readUntil(info, (t) => /"child-pid":\s*\d+/.test(t)),
      readUntil(stderr, (t) => /listening on/.test(t)),
    ]);
    const failed = exitPromise.then(() => {
      throw new Error(`the network holder exited: ${stderrText.trim().slice(0, 300)}`);
    });
    failed.catch(() => undefined); // observed by the race below; later exits are reported by alive()
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the network holder was not ready within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    const [infoText] = await Promise.race([ready, failed, timeout]);
    const holderPid = Number(/"child-pid":\s*(\d+)/.exec(infoText)?.[1]);
    child.unref();
    info.destroy();
    (child.stderr as Readable & { unref?: () => void }).unref?.();
    stderr.resume();
    return {
      holderPid,
      enterPrefix: [
        options.nsenterPath,
        `--target=${holderPid}`,
        '--user',
        '--net',
        '--preserve-credentials',
      ],
      alive: () => !exited,
      close: async () => {
        // Ref again: awaiting the exit of an unref'd child would let the event loop run dry.
        child.ref();
        if (!exited) child.kill('SIGKILL');
        await exitPromise;
      },
    };
  } catch (error) {
    if (!exited) child.kill('SIGKILL');
    await exitPromise;
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
  }
}
