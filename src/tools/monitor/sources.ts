/**
 * The two things a Monitor watches, behind one shape ({@link WatchSource}):
 *
 * - `command`: the Bash tool's spawn path (the `shell` port: its spawn spec, the session's sandbox
 *   `wrap`, its own process group) with stdout handed back as a pipe: every stdout line
 *   is an event; stderr goes to the task's output file only. The watch ends when the command's
 *   leader exits (what it left running in its group is stopped) or when it is stopped (SIGTERM to
 *   the group, SIGKILL after the grace period).
 * - `ws`: a WebSocket client (the `ws` package) whose name lookups go through the WebFetch
 *   connect-time guard (the `network` port); every text frame is an event, a binary frame becomes a placeholder line,
 *   a frame over {@link MAX_FRAME_BYTES} or a closed socket ends the watch. No redirects are
 *   followed.
 *
 * Both also append what they see to the task's output file (for TaskOutput).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import WebSocket from 'ws';
import { LineSplitter } from './line-splitter.js';
import type { MonitorNetwork, MonitorProcess, MonitorShell } from './ports.js';
import { refusedHostMessage } from './ws-policy.js';

/** Largest WebSocket message accepted, bytes (1 MiB); a larger one ends the watch. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Longest wait for stdout to close once the command's processes are gone, ms. */
const STDOUT_DRAIN_MS = 5_000;
/** Longest wait for the WebSocket opening handshake, ms. */
const HANDSHAKE_TIMEOUT_MS = 30_000;

/** How a watch ended by itself (not stopped). */
export interface SourceEnd {
  outcome: 'completed' | 'failed';
  /** Why, in a sentence for the model. */
  note: string;
  exitCode?: number | null;
}

export interface WatchSource {
  /** Settles when the watch has ended, however (stopped ones settle too, with a note). */
  ended: Promise<SourceEnd>;
  /** Stops the watch; resolves once it has ended. Idempotent. */
  stop(): Promise<void>;
  /** Synchronous last-resort kill (the host is exiting). */
  killNow(): void;
}

function outputWriter(outputFile: string): WriteStream {
  const stream = createWriteStream(outputFile, { flags: 'a' });
  stream.on('error', () => {
    // The output file is a convenience for TaskOutput; events do not depend on it.
  });
  return stream;
}

export interface CommandSourceOptions {
  command: string;
  cwd: string;
  outputFile: string;
  shell: MonitorShell;
  onLine: (line: string) => void;
}

/** Starts `command` (rejects when it cannot be spawned or the sandbox refuses it). */
export async function startCommandSource(options: CommandSourceOptions): Promise<WatchSource> {
  const { shell } = options;
  const baseSpec = shell.spec({ command: options.command, cwd: options.cwd });
  const wrapped = shell.sandbox
    ? await shell.sandbox.wrap(baseSpec, {
        command: options.command,
        dangerouslyDisableSandbox: false,
        background: true,
      })
    : { spec: baseSpec, cleanup: () => undefined };
  let proc: MonitorProcess;
  try {
    // The output file is created (truncated) here and receives stderr.
    proc = await shell.start(wrapped.spec, options.outputFile);
  } catch (error) {
    await wrapped.cleanup();
    throw error;
  }
  const file = outputWriter(options.outputFile);
  const splitter = new LineSplitter(options.onLine);
  const stdout = proc.stdout!;
  const stdoutClosed = new Promise<void>((resolve) => {
    stdout.once('close', resolve);
  });
  stdout.on('data', (chunk: Buffer) => {
    file.write(chunk);
    splitter.write(chunk);
  });
  stdout.on('error', () => undefined);
  const ended = proc.exited.then(async (exit): Promise<SourceEnd> => {
    // The leader is gone: stop what it left running (which also closes a pipe they held), then
    // take the last bytes of stdout.
    await proc.stopLeftovers();
    // A process outside the group could still hold the pipe open: wait a bounded time for it.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([stdoutClosed, new Promise<void>((r) => (timer = setTimeout(r, STDOUT_DRAIN_MS)))]);
    clearTimeout(timer);
    stdout.destroy();
    splitter.end();
    file.end();
    await wrapped.cleanup();
    if (proc.stopReason !== undefined) return { outcome: 'failed', note: 'stopped', exitCode: exit.code };
    return exit.code === 0
      ? { outcome: 'completed', note: 'The command exited (code 0).', exitCode: 0 }
      : {
          outcome: 'failed',
          note: `The command exited with code ${exit.code ?? 'unknown'}.`,
          exitCode: exit.code,
        };
  });
  return {
    ended,
    stop: async () => {
      await proc.terminate('stopped');
      await ended;
    },
    killNow: () => {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

export interface WsSourceOptions {
  url: string;
  protocols?: readonly string[];
  network: MonitorNetwork;
  outputFile: string;
  onLine: (line: string) => void;
}

/** Opens the WebSocket; the watch runs from the first connection attempt. */
export function startWsSource(options: WsSourceOptions): WatchSource {
  const file = outputWriter(options.outputFile);
  const socket = new WebSocket(options.url, options.protocols ? [...options.protocols] : [], {
    maxPayload: MAX_FRAME_BYTES,
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    followRedirects: false,
    perMessageDeflate: false,
    lookup: options.network.lookup as never,
  });
  let problem: string | undefined;
  let stopped = false;
  const emit = (line: string): void => {
    file.write(`${line}\n`);
    options.onLine(line);
  };
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    const bytes = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data);
    if (isBinary) emit(`[binary frame, ${bytes.length} bytes]`);
    else emit(bytes.toString('utf8'));
  });
  socket.on('error', (error: Error & { code?: string }) => {
    if (problem !== undefined) return;
    if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' || /max payload/i.test(error.message))
      problem = `A message larger than ${MAX_FRAME_BYTES} bytes (1 MiB) arrived, so the watch ended.`;
    else {
      const blocked = options.network.blocked(error);
      problem = blocked
        ? refusedHostMessage(blocked)
        : `The WebSocket connection failed: ${error.message.slice(0, 300)}`;
    }
  });
  const ended = new Promise<SourceEnd>((resolve) => {
    socket.once('close', (code: number, reason: Buffer) => {
      file.end();
      if (stopped) resolve({ outcome: 'failed', note: 'stopped' });
      else if (problem !== undefined) resolve({ outcome: 'failed', note: problem });
      else {
        const why = reason.length ? `: ${reason.toString('utf8').slice(0, 200)}` : '';
        resolve({
          outcome: 'completed',
          note: `The WebSocket was closed (code ${code}${why}), so the watch ended.`,
        });
      }
    });
  });
  return {
    ended,
    stop: async () => {
      if (!stopped) {
        stopped = true;
        // Closing waits for the peer's answer; a peer that never answers is cut off by terminate.
        if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
        else socket.close(1000, 'stopped');
        const cut = setTimeout(() => socket.terminate(), 2_000);
        cut.unref();
        await ended;
        clearTimeout(cut);
      }
      await ended;
    },
    killNow: () => socket.terminate(),
  };
}
