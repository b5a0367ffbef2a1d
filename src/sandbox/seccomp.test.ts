import { describe, expect, it } from 'vitest';
import { buildSeccompFilter } from './seccomp.js';

/** Decodes the program into [code, jt, jf, k] rows. */
function decode(buf: Buffer): number[][] {
  const rows: number[][] = [];
  for (let i = 0; i < buf.length; i += 8)
    rows.push([buf.readUInt16LE(i), buf[i + 2] as number, buf[i + 3] as number, buf.readUInt32LE(i + 4)]);
  return rows;
}

/** Runs the cBPF program on a seccomp_data record (enough of the interpreter for our opcodes). */
function evaluate(buf: Buffer, data: { arch: number; nr: number; arg0?: number; arg1?: number }): number {
  const prog = decode(buf);
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const [code, jt, jf, k] = prog[pc] as [number, number, number, number];
    if (code === 0x20)
      acc =
        k === 0
          ? data.nr
          : k === 4
            ? data.arch
            : k === 16
              ? (data.arg0 ?? 0)
              : k === 24
                ? (data.arg1 ?? 0)
                : Number.NaN;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unexpected opcode ${code}`);
  }
  throw new Error('fell off the end');
}

const X64 = 0xc000003e;
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;

describe('buildSeccompFilter', () => {
  const strict = buildSeccompFilter({ allowLocalBinding: false, arch: 'x64' }) as Buffer;
  const binding = buildSeccompFilter({ allowLocalBinding: true, arch: 'x64' }) as Buffer;

  it.each<[string, { arch: number; nr: number; arg0?: number; arg1?: number }, number, number, string]>([
    ['socket(AF_UNIX)', { arch: X64, nr: 41, arg0: 1 }, EPERM, EPERM, 'Unix sockets reach host services'],
    ['socket(AF_INET)', { arch: X64, nr: 41, arg0: 2 }, ALLOW, ALLOW, 'TCP to the proxy must work'],
    [
      'socket(AF_NETLINK)',
      { arch: X64, nr: 41, arg0: 16 },
      ALLOW,
      ALLOW,
      'glibc uses netlink for getaddrinfo',
    ],
    ['socketpair', { arch: X64, nr: 53, arg0: 1 }, ALLOW, ALLOW, 'pipes between a process and its children'],
    ['listen', { arch: X64, nr: 50 }, EPERM, ALLOW, 'allowLocalBinding decides'],
    [
      'io_uring_setup',
      { arch: X64, nr: 425 },
      ENOSYS,
      ENOSYS,
      'io_uring can create sockets without socket()',
    ],
    [
      'x32 socket',
      { arch: X64, nr: 0x40000000 + 41, arg0: 1 },
      EPERM,
      EPERM,
      'the x32 ABI would bypass the numbers',
    ],
    ['i386 anything', { arch: 0x40000003, nr: 1 }, EPERM, EPERM, 'foreign architectures are refused'],
    [
      'ioctl(TIOCSTI)',
      { arch: X64, nr: 16, arg1: 0x5412 },
      EPERM,
      EPERM,
      'would type into a shared terminal',
    ],
    ['ioctl(TIOCLINUX)', { arch: X64, nr: 16, arg1: 0x541c }, EPERM, EPERM, 'same, on the Linux console'],
    ['ioctl(TCGETS)', { arch: X64, nr: 16, arg1: 0x5401 }, ALLOW, ALLOW, 'isatty() and friends must work'],
    ['read', { arch: X64, nr: 0 }, ALLOW, ALLOW, 'ordinary calls pass'],
  ])('%s → strict %i / binding %i (%s)', (_name, data, strictResult, bindingResult) => {
    expect(evaluate(strict, data)).toBe(strictResult);
    expect(evaluate(binding, data)).toBe(bindingResult);
  });

  it('builds for arm64 with its own numbers and refuses unknown architectures', () => {
    const arm = buildSeccompFilter({ allowLocalBinding: false, arch: 'arm64' }) as Buffer;
    expect(evaluate(arm, { arch: 0xc00000b7, nr: 198, arg0: 1 })).toBe(EPERM);
    expect(evaluate(arm, { arch: 0xc00000b7, nr: 41, arg0: 1 })).toBe(ALLOW);
    expect(buildSeccompFilter({ allowLocalBinding: false, arch: 'riscv64' })).toBeUndefined();
  });
});
