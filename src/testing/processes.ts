/**
 * Process counting for tests of process lifetime: which live processes carry a marker in their
 * command line (a unique argument such as `sleep 300.4711`). Reads /proc (Linux); zombies do not
 * count (they have exited; only their parent has not reaped them yet).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live (non-zombie) processes whose argv contains `marker`. */
export function processesWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (!argv.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

/** A marker unique to this call, usable as a `sleep` argument (`300.<digits>`). */
export function uniqueSleepMarker(): string {
  return `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Polls until `check()` is true or `timeoutMs` passes; resolves with the last result. */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/** SIGKILLs every process carrying `marker` (a test's own processes, so a failing test leaves none). */
export function killMarked(marker: string): void {
  for (const pid of processesWithMarker(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
