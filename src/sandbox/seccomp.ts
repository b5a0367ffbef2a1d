/**
 * A tiny classic-BPF seccomp program for bubblewrap's `--seccomp FD` (docs/dependencies.md "Sandboxing": the
 * maintained runtime blocks AF_UNIX the same way).
 *
 * Why: a pathname Unix socket on the host filesystem (`/run/docker.sock`, an ssh-agent socket,
 * the D-Bus system bus) is connectable from inside a read-only bind mount and a private network
 * namespace; connecting to the Docker socket is root on the host. So the sandboxed command may not
 * create AF_UNIX sockets (`socket(AF_UNIX, …)` → EPERM; `socketpair` stays allowed, pipes between
 * a process and its children keep working). io_uring is refused too (ENOSYS): its IORING_OP_SOCKET
 * would create sockets without the `socket` syscall. With `allowLocalBinding: false`, `listen`
 * is refused (EPERM): no server can start inside. `ioctl(TIOCSTI)` and `ioctl(TIOCLINUX)` are
 * refused (EPERM): they push keystrokes into a terminal the command shares (instead of bwrap's
 * `--new-session`, which costs a session switch per command; Flatpak filters the same way).
 *
 * Program (x86_64 and aarch64; any other audit arch, and x86's x32 ABI, get EPERM for every call):
 * ```
 * A = arch; if A != NATIVE → EPERM
 * A = nr;   if A >= 0x40000000 → EPERM            (x86_64 only: x32 ABI)
 * if A == io_uring_setup|enter|register → ENOSYS
 * if A == listen and !allowLocalBinding → EPERM
 * if A == ioctl: A = args[1] (low 32 bits: the kernel's `unsigned int cmd`); TIOCSTI|TIOCLINUX → EPERM
 * if A == socket: A = args[0] (low 32 bits); if A == AF_UNIX → EPERM
 * ALLOW
 * ```
 */

/** Architectures we can build a filter for, with their audit arch and syscall numbers. */
const ARCHES = {
  x64: { auditArch: 0xc000003e, socket: 41, listen: 50, ioctl: 16, ioUring: [425, 426, 427], x32: true },
  arm64: { auditArch: 0xc00000b7, socket: 198, listen: 201, ioctl: 29, ioUring: [425, 426, 427], x32: false },
} as const;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;

/** Offsets in `struct seccomp_data`. */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;
const ARG1_LOW = 24;

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const stmt = (code: number, k: number): Insn => ({ code, jt: 0, jf: 0, k });
const jump = (code: number, k: number, jt: number, jf: number): Insn => ({ code, jt, jf, k });

/** Options for {@link buildSeccompFilter}. */
export interface SeccompOptions {
  /** Allow `listen()` (a server on the sandbox's private loopback). */
  allowLocalBinding: boolean;
  /** Node's `process.arch`; default the current one. */
  arch?: string;
}

/**
 * Builds the filter as the bytes bubblewrap reads from `--seccomp FD` (an array of
 * `struct sock_filter`, little-endian). Returns undefined for an architecture we have no syscall
 * table for (the caller reports that AF_UNIX sockets are not blocked).
 */
export function buildSeccompFilter(options: SeccompOptions): Buffer | undefined {
  const archName = options.arch ?? process.arch;
  if (archName !== 'x64' && archName !== 'arm64') return undefined;
  const a = ARCHES[archName];
  const deny = (errno: number) => stmt(BPF_RET_K, SECCOMP_RET_ERRNO | errno);
  const prog: Insn[] = [];
  prog.push(stmt(BPF_LD_W_ABS, ARCH));
  prog.push(jump(BPF_JEQ_K, a.auditArch, 1, 0));
  prog.push(deny(EPERM));
  prog.push(stmt(BPF_LD_W_ABS, NR));
  if (a.x32) {
    prog.push(jump(BPF_JGE_K, 0x40000000, 0, 1));
    prog.push(deny(EPERM));
  }
  for (const nr of a.ioUring) {
    prog.push(jump(BPF_JEQ_K, nr, 0, 1));
    prog.push(deny(ENOSYS));
  }
  if (!options.allowLocalBinding) {
    prog.push(jump(BPF_JEQ_K, a.listen, 0, 1));
    prog.push(deny(EPERM));
  }
  // ioctl: reload A with the command; both outcomes end here (deny or allow), so A is free to clobber.
  prog.push(jump(BPF_JEQ_K, a.ioctl, 0, 5));
  prog.push(stmt(BPF_LD_W_ABS, ARG1_LOW));
  prog.push(jump(BPF_JEQ_K, TIOCSTI, 1, 0));
  prog.push(jump(BPF_JEQ_K, TIOCLINUX, 0, 1));
  prog.push(deny(EPERM));
  prog.push(stmt(BPF_RET_K, SECCOMP_RET_ALLOW));
  prog.push(jump(BPF_JEQ_K, a.socket, 0, 3));
  prog.push(stmt(BPF_LD_W_ABS, ARG0_LOW));
  prog.push(jump(BPF_JEQ_K, AF_UNIX, 0, 1));
  prog.push(deny(EPERM));
  prog.push(stmt(BPF_RET_K, SECCOMP_RET_ALLOW));

  const out = Buffer.alloc(prog.length * 8);
  prog.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(insn.jt, i * 8 + 2);
    out.writeUInt8(insn.jf, i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}
