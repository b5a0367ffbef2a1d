/**
 * Spawns a {@link SpawnSpec} in its own process group with stdout and stderr both written to one
 * output file, and stops the group on request.
 *
 * Sequence: open the output file (append) → spawn detached (setsid: the child leads a new process
 * group and session, so it has no controlling terminal and cannot prompt on /dev/tty) with stdin
 * /dev/null and fds 1 and 2 = the same open file (exact interleaving, no pipe through this process:
 * output never passes through Node's memory) and fd 3 = the spawn gate, so the child runs nothing
 * until the group watchdog has the group (spawn-gate.ts) → register with the watchdog → write the
 * gate's `go` → `exited` resolves with the leader's exit →
 * `terminate(reason)` sends SIGTERM to the group, waits up to `graceMs` for the leader AND every
 * other group member to end, then sends SIGKILL to the group if anything is left.
 *
 * The command's processes are its process group plus those that left it (`setsid`, a double fork
 * into a new session) but still carry the command's tag in their environment (process-tag.ts);
 * both are stopped together. Every group is also listed with the group watchdog
 * (group-watchdog.ts), which SIGKILLs what is left when this process dies without running its exit
 * hook (SIGKILL, a crash of the runtime).
 */
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { closeSync, constants as fsConstants, openSync, readdirSync, readFileSync } from 'node:fs';
import {
  newProcessTag,
  PROCESS_TAG_ENV,
  processStartTicks,
  scanCommandProcesses,
  signalEach,
} from './process-tag.js';
import type { SpawnSpec } from './spawn-spec.js';
import { ensureGroupWatchdog, type WatchedGroup, watchProcessGroup } from './group-watchdog.js';
import { GATE_GO, gatedArgv } from './spawn-gate.js';

/** How the leader process ended. */
export interface ExitInfo {
  /** Exit code, or `128 + signal number` when killed by a signal (bash convention); null if unknown. */
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Why a command was stopped. */
export type StopReason = 'timeout' | 'abort' | 'output-limit' | 'stopped';

/** What `terminate` did: the last signal it had to send. */
export type StopSignal = 'SIGTERM' | 'SIGKILL';

export interface RunningProcess {
  pid: number;
  /** The command's stdout, when it was started with `stdoutPipe` (stderr still goes to the file). */
  stdout?: Readable;
  exited: Promise<ExitInfo>;
  /** Set once `terminate` was called. */
  readonly stopReason: StopReason | undefined;
  /**
   * Stops the whole process group: SIGTERM, then SIGKILL after the grace period if the leader or any
   * group member is still alive. Idempotent: later calls return the first call's promise.
   */
  terminate(reason: StopReason): Promise<StopSignal>;
  /** Resolves once the leader exited and no member of its group is left (zombies count as gone). */
  groupGone(): Promise<void>;
  /**
   * After the leader exited: stops what it left running in its group (`cmd &`, `nohup cmd &`) the
   * same way as `terminate` (SIGTERM, then SIGKILL after the grace period), without marking the
   * command as stopped. Resolves with how many processes were left and the last signal sent, or
   * undefined when the group was already empty. Processes that left the group (`setsid`) but carry
   * the command's tag count and are stopped too.
   */
  stopLeftovers(): Promise<{ count: number; signal: StopSignal } | undefined>;
  /**
   * How many of the command's processes are alive now (its group and those that left it carrying
   * its tag; one scan of /proc). Once the leader exited and this is 0, the group is taken off the
   * lists (this process's and the watchdog's).
   */
  processCount(): number;
}

/**
 * Every process group started here that may still have members, for {@link stopAllProcessGroups}:
 * handle → SIGKILLs the group and the processes that left it, synchronously.
 */
const liveGroups = new Map<RunningProcess, () => void>();

/**
 * Stops every process group this process started that is still running (foreground commands,
 * background tasks, and what their leaders left behind): SIGTERM, then SIGKILL after each group's
 * grace period. For a server shutting down (`gantry mcp` on end of input or a signal). Resolves
 * when every group is gone.
 */
export async function stopAllProcessGroups(): Promise<number> {
  const groups = [...liveGroups.keys()];
  await Promise.all(
    groups.map(async (g) => {
      await g.terminate('stopped');
      liveGroups.delete(g);
    }),
  );
  return groups.length;
}

/**
 * Last resort when this process exits with groups still listed (an exit that skipped the orderly
 * shutdown): SIGKILL them synchronously, so none is left running under init.
 */
function killListedGroupsNow(): void {
  for (const killNow of liveGroups.values()) killNow();
}
let exitHookInstalled = false;

/** Process groups started here that may still have members (for tests and shutdown reports). */
export function runningProcessGroupCount(): number {
  return liveGroups.size;
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

let afterSpawnHook: ((pid: number) => void) | undefined;

/**
 * Tests only: `hook(pid)` runs right after each spawn returns, before the group is registered with
 * the watchdog and the command's gate is opened (a test host SIGKILLs itself there, in what used to
 * be the window between the spawn and the registration).
 */
export function setAfterSpawnHookForTest(hook: ((pid: number) => void) | undefined): void {
  afterSpawnHook = hook;
}

/** Longest wait for SIGKILLed group members to disappear, ms. */
const KILL_SETTLE_MS = 5_000;

/** A wait that keeps the process alive: stopping a group finishes before the process may exit. */
function heldDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Live (non-zombie) processes of process group `pgid`: pid → identity (`comm:starttime`, which
 * changes when the process execs another program). Linux reads /proc; elsewhere it falls back to a
 * signal-0 probe of the group (which cannot tell zombies apart).
 */
export function groupMemberIdentities(pgid: number): Map<number, string> {
  const members = new Map<number, string>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    try {
      process.kill(-pgid, 0);
      members.set(pgid, '');
    } catch {
      // no member left
    }
    return members;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    // `pid (comm) state ppid pgrp … starttime(22) …`; fields[0] is field 3 (state).
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    if (Number(fields[2]) !== pgid || fields[0] === 'Z' || fields[0] === 'X') continue;
    members.set(Number(entry), `${stat.slice(stat.indexOf('(') + 1, close)}:${fields[19]}`);
  }
  return members;
}

/** Pids of live (non-zombie) processes in process group `pgid` (see {@link groupMemberIdentities}). */
export function liveGroupMembers(pgid: number): number[] {
  return [...groupMemberIdentities(pgid).keys()];
}

/** True when `pid` exists and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

export interface StartProcessOptions {
  spec: SpawnSpec;
  /** Output file: created, or truncated when it exists. stdout and stderr both go here. */
  outputFile: string;
  /** Time between SIGTERM and SIGKILL, ms. */
  graceMs: number;
  /** Do not keep the host's event loop alive for this process (background tasks). */
  unref?: boolean;
  /**
   * Hand stdout to the caller as a pipe (`RunningProcess.stdout`) instead of the output file: the
   * Monitor tool reads it line by line. stderr still goes to the output file.
   */
  stdoutPipe?: boolean;
}

/**
 * Starts the process. Rejects (without leaving anything running) when the program cannot be
 * spawned (ENOENT, EACCES, bad cwd), with the system error.
 */
export async function startProcess(options: StartProcessOptions): Promise<RunningProcess> {
  const { spec, graceMs } = options;
  const tag = newProcessTag();
  // The watchdog runs before the command does, and the command waits on its gate (fd 3) until the
  // watchdog has its group (spawn-gate.ts): no SIGKILL of this process can leave it unlisted.
  // (Resolving the program may throw ENOENT / EACCES, as the spawn would: nothing is open yet.)
  const gated = ensureGroupWatchdog();
  const argv = gated ? gatedArgv(spec) : { file: spec.file, args: spec.args };
  // O_APPEND: writers that share or re-open the file never overwrite each other's output.
  const fd = openSync(
    options.outputFile,
    fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_APPEND,
  );
  let child: ReturnType<typeof spawn>;
  try {
    const out = options.stdoutPipe ? 'pipe' : fd;
    child = spawn(argv.file, argv.args, {
      cwd: spec.cwd,
      env: { ...spec.env, [PROCESS_TAG_ENV]: tag },
      stdio: gated ? ['ignore', out, fd, 'pipe'] : ['ignore', out, fd],
      detached: true,
      windowsHide: true,
    });
  } finally {
    closeSync(fd);
  }
  const gate = (gated ? child.stdio[3] : undefined) as (Writable & { unref?: () => void }) | null | undefined;
  if (gate) {
    gate.on('error', () => {
      // The child closed its end (it ended); nothing to release.
    });
    gate.unref?.();
  }
  // Listened for at once: the awaits below must not miss an exit (a command killed from outside).
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      const signalCode = signal ? SIGNAL_NUMBERS[signal] : undefined;
      resolve({ code: code ?? (signalCode !== undefined ? 128 + signalCode : null), signal });
    });
  });
  // The pid is known as soon as the spawn returns (undefined when it failed): register the group
  // and open the gate at once, before the child's shell even reaches its `read`, when the line is
  // already in the kernel's pipe; otherwise once it is.
  let watched: WatchedGroup | undefined;
  if (child.pid !== undefined) {
    afterSpawnHook?.(child.pid);
    watched = watchProcessGroup(child.pid, tag);
    if (watched.registeredNow) gate?.end(GATE_GO);
  }
  const pid = await new Promise<number>((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid!));
    child.once('error', reject);
  });
  const group = watched ?? watchProcessGroup(pid, tag);
  if (!group.registeredNow) {
    await group.registered;
    gate?.end(GATE_GO);
  }
  child.on('error', () => {
    // After a successful spawn the only errors are failed kill() calls; the group kill handles those.
  });
  if (options.unref) child.unref();
  const since = processStartTicks(pid);
  /** The command's live processes: its group and those that left it (pid → identity). */
  const members = (): Map<number, string> => {
    const scan = scanCommandProcesses(pid, tag, since);
    if (!scan) return groupMemberIdentities(pid);
    for (const [p, identity] of scan.escaped) scan.group.set(p, identity);
    return scan.group;
  };
  /** Signals the group and every process that left it. */
  const signalAll = (signal: NodeJS.Signals): void => {
    signalGroup(pid, signal);
    const scan = scanCommandProcesses(pid, tag, since);
    if (scan) signalEach(scan.escaped.keys(), signal);
  };
  let leaderDone = false;
  void exited.then(() => {
    leaderDone = true;
  });

  const groupGone = async (): Promise<void> => {
    await exited;
    while (liveGroupMembers(pid).length > 0) await delay(25);
  };

  /** SIGTERM the group, wait up to the grace period, then SIGKILL what is left (see `terminate`). */
  const stopGroup = async (): Promise<StopSignal> => {
    let signalled = members();
    signalAll('SIGTERM');
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      await heldDelay(Math.min(25, Math.max(1, deadline - Date.now())));
      const current = members();
      if (leaderDone && current.size === 0) return 'SIGTERM';
      // A process forked just before the SIGTERM may have exec'd with the signal lost (bash resets
      // its handlers in the child); one forked after it never got it. Both get their own SIGTERM.
      for (const [member, identity] of current) {
        if (signalled.get(member) === identity) continue;
        try {
          process.kill(member, 'SIGTERM');
        } catch {
          // gone meanwhile
        }
      }
      signalled = current;
    }
    if (leaderDone && members().size === 0) return 'SIGTERM';
    signalAll('SIGKILL');
    await exited;
    // SIGKILL cannot be caught, but delivery is not instant: wait (bounded, for processes stuck in
    // uninterruptible sleep) until no member is left, re-sending it to late forks.
    const killDeadline = Date.now() + KILL_SETTLE_MS;
    while (members().size > 0 && Date.now() < killDeadline) {
      signalAll('SIGKILL');
      await heldDelay(10);
    }
    return 'SIGKILL';
  };

  let stopReason: StopReason | undefined;
  let stopping: Promise<StopSignal> | undefined;
  const terminate = (reason: StopReason): Promise<StopSignal> => {
    if (stopping) return stopping;
    stopReason ??= reason;
    stopping = stopGroup().finally(drop);
    return stopping;
  };

  const stopLeftovers = async (): Promise<{ count: number; signal: StopSignal } | undefined> => {
    await exited;
    const count = members().size;
    if (count === 0) {
      drop();
      return undefined;
    }
    stopping ??= stopGroup().finally(drop);
    return { count, signal: await stopping };
  };

  const processCount = (): number => {
    const count = members().size;
    if (count === 0 && leaderDone && !stopping) drop();
    return count;
  };

  const handle: RunningProcess = {
    pid,
    ...(child.stdout ? { stdout: child.stdout } : {}),
    exited,
    get stopReason() {
      return stopReason;
    },
    terminate,
    groupGone,
    stopLeftovers,
    processCount,
  };
  /** Takes the group off both lists (this process's and the watchdog's). */
  function drop(): void {
    liveGroups.delete(handle);
    group.unwatch();
  }
  liveGroups.set(handle, () => signalAll('SIGKILL'));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', killListedGroupsNow);
  }
  // Forget a group once it is empty; one whose leader left members behind stays listed until it is
  // stopped (by `stopLeftovers`, `terminate` or `stopAllProcessGroups`).
  void exited.then(() => {
    if (members().size === 0 && !stopping) drop();
  });
  return handle;
}
