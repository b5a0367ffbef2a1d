/**
 * The process-group watchdog: the command groups this process started end when it ends, also when
 * it is SIGKILLed and runs no exit handler (docs/reliability.md, "Process lifetime").
 *
 * One small `/bin/sh` per Gantry process (started at its first command, in its own session so a
 * signal to Gantry's group or terminal does not reach it, cwd `/`, stdout and stderr closed) reads
 * lines from a pipe only Gantry holds the write end of (Node opens it close-on-exec, so no command
 * inherits it):
 *
 *   `+ <pgid> <tag>`  a command group started (its `GANTRY_PROCESS_TAG`, process-tag.ts);
 *   `- <pgid>`        the group is gone or was stopped.
 *
 * When the pipe reaches end of file — the kernel closes it when Gantry exits in any way, SIGKILL
 * included — the watchdog SIGKILLs every group still listed, then every process of this user whose
 * environment carries one of their tags (those that left the group: `setsid`, a double fork), twice
 * (a fork that raced the first round), and exits. No root, no `prctl`, and it also covers the
 * background tasks (they are the session's). A group registered and removed in the usual way costs
 * one short write each; nothing runs in the watchdog until its read returns.
 *
 * No window between a command's spawn and its `+` line: a command runs nothing until that line has
 * reached the kernel (exec.ts opens the command's spawn gate, spawn-gate.ts, right after the write
 * when {@link watchProcessGroup} says `registeredNow`, else once `registered` resolves); a SIGKILL before that closes the gate's pipe too, and the
 * command exits without having run. The watchdog itself is started before the first command
 * ({@link ensureGroupWatchdog}).
 *
 * Residual window: a group that emptied while its `-` line was not yet written, whose pgid a new
 * group took in between (the kernel hands out pids in order up to `pid_max`, so reuse within that
 * window is not expected). Sandboxed commands also run under bubblewrap's `--die-with-parent` in a
 * pid namespace (src/sandbox/bwrap-command.ts). Without `/bin/sh` (Windows) there is no watchdog
 * and no gate; the exit hook in exec.ts still covers every exit that runs handlers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PROCESS_TAG_ENV } from './process-tag.js';

/** The watchdog's program (POSIX sh; dash and bash both run it). `$1` is the owner's pid, for `ps` only. */
export const WATCHDOG_SCRIPT = `
ids=
while IFS=' ' read -r op id tag; do
  case $id in ''|*[!0-9]*) continue ;; esac
  case $op in
    +) case $tag in ''|*[!0-9A-Za-z-]*) continue ;; esac
       eval "t_$id=\\$tag"; ids="$ids $id" ;;
    -) kept=; for x in $ids; do [ "$x" = "$id" ] || kept="$kept $x"; done; ids=$kept; unset "t_$id" ;;
  esac
done
[ -n "$ids" ] || exit 0
pats=
for id in $ids; do eval "pats=\\"\\$pats -e ${PROCESS_TAG_ENV}=\\$t_$id\\""; done
for round in 1 2; do
  for id in $ids; do kill -s KILL -- "-$id" 2>/dev/null; done
  for f in $(grep -lzxF $pats /proc/[0-9]*/environ 2>/dev/null); do
    p=\${f#/proc/}; p=\${p%/environ}; [ "$p" = "$$" ] || kill -s KILL -- "$p" 2>/dev/null
  done
done
exit 0
`;

const SHELL = '/bin/sh';

let child: ChildProcess | undefined;
/** False once it is known there is no watchdog to be had here (no `/bin/sh`, Windows). */
let available = process.platform !== 'win32';

function watchdog(): ChildProcess | undefined {
  if (child) return child;
  if (!available || !existsSync(SHELL)) {
    available = false;
    return undefined;
  }
  let started: ChildProcess;
  try {
    started = spawn(SHELL, ['-c', WATCHDOG_SCRIPT, 'gantry-group-watchdog', String(process.pid)], {
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
  } catch {
    return undefined;
  }
  const forget = (): void => {
    if (child === started) child = undefined;
  };
  started.on('error', forget);
  started.on('exit', forget);
  started.stdin?.on('error', forget);
  // Neither the process nor its pipe keeps this process's event loop alive.
  started.unref();
  (started.stdin as { unref?: () => void } | null)?.unref?.();
  child = started;
  return started;
}

/**
 * Writes `line` to the watchdog. `now`: the bytes are already in the kernel's pipe (the usual
 * case: the write completed synchronously, nothing is left queued in the stream). `done` resolves
 * once they were handed to the kernel, or could not be (no watchdog, a broken pipe).
 */
function send(line: string): { now: boolean; done: Promise<void> } {
  const c = watchdog();
  const stdin = c?.stdin;
  if (!stdin || stdin.destroyed) return { now: true, done: Promise.resolve() };
  const done = new Promise<void>((resolve) => {
    stdin.write(line, () => resolve());
  });
  return { now: stdin.writableLength === 0, done };
}

/**
 * Starts the watchdog unless it runs. True when there is one (then commands are gated, exec.ts);
 * false where none can run (no `/bin/sh`). Call it before spawning a command, so the watchdog is
 * there to read its registration. Never throws.
 */
export function ensureGroupWatchdog(): boolean {
  return watchdog() !== undefined;
}

/** A group on the watchdog's list. */
export interface WatchedGroup {
  /** Resolves once the `+` line reached the kernel's pipe: from then on a death of this process kills the group. */
  registered: Promise<void>;
  /** True when the `+` line was already in the kernel's pipe as `watchProcessGroup` returned. */
  registeredNow: boolean;
  /** Takes the group off the list (idempotent). */
  unwatch(): void;
}

/**
 * Tells the watchdog about a command group (`pgid` = the leader's pid) whose processes carry
 * `tag`. Never throws; input it would have to quote is ignored (`registered` resolves at once).
 */
export function watchProcessGroup(pgid: number, tag: string): WatchedGroup {
  if (!Number.isInteger(pgid) || pgid <= 1 || !/^[0-9A-Za-z-]+$/.test(tag)) {
    return { registered: Promise.resolve(), registeredNow: true, unwatch: () => undefined };
  }
  const sent = send(`+ ${pgid} ${tag}\n`);
  let done = false;
  return {
    registered: sent.done,
    registeredNow: sent.now,
    unwatch: () => {
      if (done) return;
      done = true;
      send(`- ${pgid}\n`);
    },
  };
}

/** The watchdog's pid, if one runs (tests). */
export function groupWatchdogPid(): number | undefined {
  return child?.pid;
}

/**
 * Closes the pipe as the kernel does when this process dies: the watchdog kills what is listed and
 * exits; the next command starts a new one. Resolves once it exited. For tests.
 */
export function closeGroupWatchdogForTest(): Promise<void> {
  const c = child;
  if (!c) return Promise.resolve();
  child = undefined;
  return new Promise((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.stdin?.end();
  });
}
