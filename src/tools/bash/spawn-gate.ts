/**
 * The spawn gate: a command runs nothing until the group watchdog knows its process group
 * (docs/reliability.md, "Process lifetime"; group-watchdog.ts).
 *
 * The pgid of a command is the pid of its leader, known only once it is spawned. Had the command
 * started running at the spawn, a SIGKILL of this process before the watchdog read the pgid would
 * leave the group running under init. So every command is spawned with one more descriptor, fd 3:
 * a pipe whose other end only this process holds (close-on-exec). The first thing the child does
 * is read one line from it:
 *
 *   - `go` — this process wrote it after the watchdog's `+ <pgid> <tag>` line reached the kernel:
 *     fd 3 is closed and the command runs;
 *   - end of file without `go` — this process died before that (the kernel closed its end): the
 *     child exits 125 having run nothing.
 *
 * Who reads the line ({@link gatedArgv}):
 *
 *   - a spec built by `buildShellSpawnSpec` and passed on unchanged (no sandbox, or a sandbox that
 *     returned it as it was): its own bash reads it, as the first line of its script (a builtin
 *     `read`: no extra process);
 *   - any other spec (a sandbox wrapper, a caller's own program): `/bin/sh` reads it and `exec`s
 *     the program with fd 3 closed. The program is looked up in the spec's PATH here first
 *     ({@link resolveProgram}), so a missing or non-executable one still fails the spawn with
 *     ENOENT / EACCES instead of becoming exit 127 of the wrapper.
 */
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import path from 'node:path';
import type { SpawnSpec } from '../../core/spawn.js';

/** The line that releases a gated child. */
export const GATE_GO = 'go\n';

/** The exit status of a child that never got the go-ahead. */
export const GATE_CLOSED_EXIT = 125;

/** First line of a self-gated bash script: wait for `go` on fd 3, then close it. */
const BASH_GATE = `{ IFS= read -r __gantry_go <&3 && [ "$__gantry_go" = go ]; } 2>/dev/null || exit ${GATE_CLOSED_EXIT}; exec 3<&-; unset __gantry_go`;

/** The `/bin/sh` wrapper for any other program: `$@` is the program and its arguments. */
const SH_GATE = `IFS= read -r g <&3 && [ "$g" = go ] || exit ${GATE_CLOSED_EXIT}; exec "$@" 3<&-`;

const SH = '/bin/sh';

/** Specs whose own bash reads the gate: spec → the file, args and script index it was built with. */
const selfGated = new WeakMap<SpawnSpec, { file: string; args: string[]; scriptIndex: number }>();

/**
 * Marks `spec` (built by `buildShellSpawnSpec`) as one whose shell can read the gate itself:
 * `args[scriptIndex]` is its `-c` script. Only this exact object with these exact file and args
 * counts; a sandbox that rewrites the spec gets the `/bin/sh` wrapper.
 */
export function markSelfGatingSpec(spec: SpawnSpec, scriptIndex: number): void {
  selfGated.set(spec, { file: spec.file, args: spec.args, scriptIndex });
}

/**
 * A program name as the spawn would find it: a path with a slash as is, a bare name in the
 * spec's PATH (empty entries mean the working directory, as for execvp). Throws an error shaped
 * like Node's spawn error (`code` ENOENT or EACCES, `syscall`, `path`, `spawnargs`) when there is
 * none that can be executed.
 */
export function resolveProgram(spec: SpawnSpec): string {
  const fail = (code: 'ENOENT' | 'EACCES'): never => {
    throw Object.assign(new Error(`spawn ${spec.file} ${code}`), {
      code,
      errno: code === 'ENOENT' ? -2 : -13,
      syscall: `spawn ${spec.file}`,
      path: spec.file,
      spawnargs: spec.args,
    });
  };
  const executable = (candidate: string): 'ok' | 'ENOENT' | 'EACCES' => {
    try {
      if (!statSync(candidate).isFile()) return 'EACCES';
      accessSync(candidate, fsConstants.X_OK);
      return 'ok';
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'EACCES' : 'ENOENT';
    }
  };
  if (spec.file.includes('/')) {
    const full = path.resolve(spec.cwd, spec.file);
    const state = executable(full);
    return state === 'ok' ? full : fail(state);
  }
  let denied = false;
  for (const dir of (spec.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const full = path.resolve(spec.cwd, dir, spec.file);
    const state = executable(full);
    if (state === 'ok') return full;
    if (state === 'EACCES') denied = true;
  }
  return fail(denied ? 'EACCES' : 'ENOENT');
}

/** The argv to spawn for `spec` so that it waits for the gate on fd 3 (see the module comment). */
export function gatedArgv(spec: SpawnSpec): { file: string; args: string[] } {
  const own = selfGated.get(spec);
  if (own && own.file === spec.file && own.args === spec.args) {
    const args = [...spec.args];
    args[own.scriptIndex] = `${BASH_GATE}\n${args[own.scriptIndex]}`;
    return { file: spec.file, args };
  }
  return { file: SH, args: ['-c', SH_GATE, 'gantry-gate', resolveProgram(spec), ...spec.args] };
}
