/**
 * Starts the resident hook server (hook-daemon.ts) in the background after a call was decided
 * in-process, so the next call takes the warm path (hook-client.ts). Kept apart from the client:
 * `node:child_process` is only loaded on the cold path.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

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
