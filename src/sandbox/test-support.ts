/**
 * Test and bench support for the sandbox (imported only by `*.test.ts` and `bench/`): runs one
 * command through a {@link SandboxManager} the way the Bash tool does — spec → `wrap` → spawn
 * asynchronously (the proxy runs in this event loop) → wait → `cleanup` → `annotate` — or without
 * a sandbox, so every escape test can prove it succeeds outside and fails inside.
 */
import { spawn } from 'node:child_process';
import type { SandboxManager } from './sandbox-manager.js';

export interface RunOptions {
  command: string;
  cwd: string;
  /** Complete environment (default: this process's). */
  env?: Record<string, string>;
  dangerouslyDisableSandbox?: boolean;
  /** Files the harness needs writable (like the Bash tool's cwd file). */
  harnessWritablePaths?: string[];
}

export interface RunResult {
  code: number | null;
  /** stdout and stderr, interleaved as produced. */
  output: string;
  /** The sandbox's notes (`annotate('')`), '' when none. */
  notes: string;
}

function currentEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

/** Runs `command` with `bash -c`, through `sandbox` when given. Rejects when `wrap` refuses. */
export async function runWithSandbox(
  sandbox: SandboxManager | undefined,
  options: RunOptions,
): Promise<RunResult> {
  const spec = {
    file: 'bash',
    args: ['--noprofile', '--norc', '-c', options.command],
    cwd: options.cwd,
    env: options.env ?? currentEnv(),
    harnessWritablePaths: options.harnessWritablePaths ?? [],
  };
  const info = {
    command: options.command,
    dangerouslyDisableSandbox: options.dangerouslyDisableSandbox ?? false,
    background: false,
  };
  const wrapped = sandbox ? await sandbox.wrap(spec, info) : { spec, cleanup: () => undefined };
  let output = '';
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(wrapped.spec.file, wrapped.spec.args, {
      cwd: wrapped.spec.cwd,
      env: wrapped.spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  });
  wrapped.cleanup();
  const notes = sandbox ? sandbox.annotate('', { ...info, output }) : '';
  return { code, output, notes };
}
