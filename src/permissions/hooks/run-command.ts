/**
 * Runs one command hook as a real process (the Claude Code hooks reference): `/bin/sh -c <command>` in the
 * session cwd, the hook input JSON on stdin, `CLAUDE_PROJECT_DIR`/`GANTRY_PROJECT_DIR` in the
 * environment, its own process group (killed whole on timeout). Output is capped at 1 MiB per
 * stream. Never throws: spawn failures and timeouts come back as values.
 */
import type * as ChildProcess from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * `node:child_process` is loaded when a hook first runs: most decisions run none, and loading it
 * at import costs about 2 ms of every `gantry check` and cold `gantry hook` start.
 */
function childProcess(): typeof ChildProcess {
  return createRequire(import.meta.url)('node:child_process') as typeof ChildProcess;
}

export interface CommandHookRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the process could not start. */
  spawnError?: string;
}

const MAX_STREAM_BYTES = 1024 * 1024;

export function runCommandHook(opts: {
  command: string;
  input: unknown;
  cwd: string;
  timeoutMs: number;
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}): Promise<CommandHookRun> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: CommandHookRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    const child = childProcess().spawn('/bin/sh', ['-c', opts.command], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    const onAbort = (): void => killGroup();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes < MAX_STREAM_BYTES) out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < MAX_STREAM_BYTES) err.push(b);
      errBytes += b.length;
    });
    child.on('error', (e) =>
      finish({ exitCode: null, stdout: '', stderr: '', timedOut: false, spawnError: e.message }),
    );
    child.on('close', (code) =>
      finish({
        exitCode: code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
      }),
    );
    child.stdin.on('error', () => {
      // The hook may exit without reading its input (EPIPE); its exit code still counts.
    });
    child.stdin.end(`${JSON.stringify(opts.input)}\n`);
  });
}
