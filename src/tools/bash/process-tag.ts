/**
 * Finding the processes one command started after they left its process group (`setsid cmd &`,
 * a daemon's double fork into a new session), so they are stopped with it (exec.ts,
 * docs/process-lifetime.md).
 *
 * Every command is spawned with `GANTRY_PROCESS_TAG=<tag>` in its environment, a tag unique to the
 * command. Children inherit the environment, and `setsid` does not change it, so on Linux a scan of
 * `/proc/<pid>/environ` (readable for the user's own processes) finds them wherever they moved. A
 * process that scrubs its environment before exec (`env -i setsid cmd`) is not found; one started
 * through another service (`systemd-run`, `at`) is not a descendant and is not either. Elsewhere
 * (no `/proc`) nothing is found and only the process group is stopped.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable that carries the tag. */
export const PROCESS_TAG_ENV = 'GANTRY_PROCESS_TAG';

/** A new tag: unique per command (this process's pid and a random UUID). */
export function newProcessTag(): string {
  return `${process.pid}-${randomUUID()}`;
}

interface StatFields {
  state: string;
  pgrp: number;
  /** Start time after boot, in clock ticks (field 22 of /proc/<pid>/stat). */
  start: number;
  /** `comm:start`: changes when the pid is reused. */
  identity: string;
}

function readStat(pid: string | number): StatFields | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp … starttime(22) …`; fields[0] is field 3 (state).
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return {
    state: fields[0] ?? '',
    pgrp: Number(fields[2]),
    start: Number(fields[19]),
    identity: `${stat.slice(stat.indexOf('(') + 1, close)}:${fields[19]}`,
  };
}

/** Start time of `pid` in clock ticks after boot, or 0 when unknown (then no process is skipped by age). */
export function processStartTicks(pid: number): number {
  return readStat(pid)?.start ?? 0;
}

/** A command's live processes, from one scan of /proc. */
export interface CommandProcesses {
  /** Members of its process group: pid → identity (`comm:starttime`). */
  group: Map<number, string>;
  /** Processes that left the group but carry the command's tag: pid → identity. */
  escaped: Map<number, string>;
}

/**
 * One scan of `/proc`: the live (non-zombie) members of process group `pgid`, and the processes
 * outside it that carry `tag` in their environment. Processes started before `notBefore` (clock
 * ticks, the command's start) cannot be its descendants and their environment is not read.
 * Undefined when `/proc` cannot be read (not Linux).
 */
export function scanCommandProcesses(
  pgid: number,
  tag: string,
  notBefore: number,
): CommandProcesses | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const group = new Map<number, string>();
  const escaped = new Map<number, string>();
  const needle = Buffer.from(`${PROCESS_TAG_ENV}=${tag}\u0000`, 'latin1');
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const s = readStat(entry);
    if (!s || s.state === 'Z' || s.state === 'X') continue;
    if (s.pgrp === pgid) {
      group.set(Number(entry), s.identity);
      continue;
    }
    if (s.start < notBefore) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // another user's process, or gone
    }
    const at = environ.indexOf(needle);
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) escaped.set(Number(entry), s.identity);
  }
  return { group, escaped };
}

/** Sends `signal` to each pid (those already gone are skipped). */
export function signalEach(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}
