/**
 * Renders one sandboxed command line (, "Network"):
 *
 * ```
 * /bin/sh -c 'f=$1; shift; exec "$@" 9<"$f"' gantry-sandbox <seccomp.bpf>      (when a filter exists)
 *   [nsenter --target=<holder> --user --net --preserve-credentials]             (shared network namespace)
 *   bwrap --unshare-user --uid U --gid G --disable-userns --unshare-pid --unshare-ipc --unshare-uts
 *         --unshare-cgroup-try [--unshare-net] --die-with-parent
 *         --ro-bind / / --dev /dev --proc /proc  <mount ops>  <--remount-ro masks>
 *         --chdir <cwd> [--seccomp 9] -- <program> <args…>
 * ```
 * - `/bin/sh` only opens the filter file as fd 9 (a POSIX sh redirects single-digit fds only; the Bash tool spawns with three stdio fds) and
 *   `exec`s; nsenter also `exec`s, so bwrap keeps the spawned pid and `--die-with-parent` refers to
 *   the Node process.
 * - Without the shared network namespace (no socat/nsenter) bwrap makes a private one
 *   (`--unshare-net`): loopback only, no proxy — the network is closed.
 * - `--disable-userns`: no nested user namespaces inside (the Claude Code sandboxing docs lists allowing them as a
 *   security-reducing escape).
 * - No `--new-session`: the seccomp filter refuses TIOCSTI/TIOCLINUX instead (a new session per
 *   command measurably slows every call), and the command stays in the spawner's process group, so
 *   the Bash tool's group SIGTERM reaches it directly (its EXIT trap still records the cwd).
 */
import type { FilesystemPlan } from './filesystem-policy.js';

export interface BwrapCommandInput {
  bwrapPath: string;
  plan: FilesystemPlan;
  cwd: string;
  program: string;
  args: readonly string[];
  /** `[nsenter, …]` to join the shared network namespace; undefined → private `--unshare-net`. */
  enterPrefix?: readonly string[];
  /** File holding the seccomp program; undefined → no filter. */
  seccompFile?: string;
  uid: number;
  gid: number;
}

/** The fd number the seccomp program is passed on. */
export const SECCOMP_FD = 9;

/** Mount arguments for a plan, in order, with tmpfs masks remounted read-only at the end. */
export function mountArgs(plan: FilesystemPlan): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  const remount: string[] = [];
  for (const op of plan.ops) {
    switch (op.op) {
      case 'bind':
        args.push('--bind', op.path, op.path);
        break;
      case 'ro-bind':
        args.push('--ro-bind', op.path, op.path);
        break;
      case 'mask-dir':
        args.push('--perms', '0555', '--tmpfs', op.path);
        remount.push('--remount-ro', op.path);
        break;
      case 'mask-file':
        args.push('--ro-bind', '/dev/null', op.path);
        break;
    }
  }
  return [...args, ...remount];
}

/** Builds `{file, args}` for the spawn (see the module comment). */
export function buildBwrapCommand(input: BwrapCommandInput): { file: string; args: string[] } {
  const bwrap = [
    input.bwrapPath,
    '--unshare-user',
    '--uid',
    String(input.uid),
    '--gid',
    String(input.gid),
    '--disable-userns',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    // Only a real nsenter prefix replaces the private network namespace (an empty one must not).
    ...(input.enterPrefix?.length ? [] : ['--unshare-net']),
    '--die-with-parent',
    ...mountArgs(input.plan),
    '--chdir',
    input.cwd,
    ...(input.seccompFile ? ['--seccomp', String(SECCOMP_FD)] : []),
    '--',
    input.program,
    ...input.args,
  ];
  const command = [...(input.enterPrefix?.length ? input.enterPrefix : []), ...bwrap];
  if (!input.seccompFile) return { file: command[0] as string, args: command.slice(1) };
  return {
    file: '/bin/sh',
    args: [
      '-c',
      `f=$1; shift; exec "$@" ${SECCOMP_FD}<"$f"`,
      'gantry-sandbox',
      input.seccompFile,
      ...command,
    ],
  };
}
