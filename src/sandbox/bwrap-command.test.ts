import { describe, expect, it } from 'vitest';
import { buildBwrapCommand, mountArgs } from './bwrap-command.js';
import type { FilesystemPlan } from './filesystem-policy.js';

const plan: FilesystemPlan = {
  ops: [
    { op: 'bind', path: '/p' },
    { op: 'mask-dir', path: '/h/.ssh' },
    { op: 'mask-file', path: '/h/.netrc' },
    { op: 'ro-bind', path: '/p/.git/hooks', why: 'hooks' },
  ],
  writable: ['/p'],
  readOnly: [],
  hidden: [],
  anchors: ['/p'],
};
const base = {
  bwrapPath: 'bwrap',
  plan,
  cwd: '/p',
  program: 'bash',
  args: ['-c', 'true'],
  uid: 1000,
  gid: 100,
};

describe('buildBwrapCommand', () => {
  it('renders mounts in plan order and remounts masks read-only at the end', () => {
    expect(mountArgs(plan)).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      '/p',
      '/p',
      '--perms',
      '0555',
      '--tmpfs',
      '/h/.ssh',
      '--ro-bind',
      '/dev/null',
      '/h/.netrc',
      '--ro-bind',
      '/p/.git/hooks',
      '/p/.git/hooks',
      '--remount-ro',
      '/h/.ssh',
    ]);
  });

  it.each<[string, Partial<Parameters<typeof buildBwrapCommand>[0]>, boolean, string]>([
    ['no prefix', {}, true, 'no shared namespace: a private, closed network'],
    ['empty prefix', { enterPrefix: [] }, true, 'an empty prefix must never mean the host network'],
    [
      'nsenter prefix',
      { enterPrefix: ['nsenter', '--target=1', '--user', '--net'] },
      false,
      'joins the shared namespace',
    ],
  ])('%s → --unshare-net %s (%s)', (_name, extra, unshareNet) => {
    const { file, args } = buildBwrapCommand({ ...base, ...extra });
    expect(file).toBe(extra.enterPrefix?.length ? 'nsenter' : 'bwrap');
    expect(args.includes('--unshare-net')).toBe(unshareNet);
  });

  it('a seccomp file is opened as fd 9 by /bin/sh, which execs the rest', () => {
    const { file, args } = buildBwrapCommand({ ...base, seccompFile: '/s/f.bpf' });
    expect(file).toBe('/bin/sh');
    expect(args.slice(0, 4)).toEqual(['-c', 'f=$1; shift; exec "$@" 9<"$f"', 'gantry-sandbox', '/s/f.bpf']);
    expect(args).toContain('--seccomp');
    expect(args[args.indexOf('--seccomp') + 1]).toBe('9');
    expect(args.slice(-4)).toEqual(['--', 'bash', '-c', 'true']);
    for (const flag of ['--unshare-user', '--unshare-pid', '--die-with-parent', '--disable-userns']) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain('--new-session'); // TIOCSTI is refused by the seccomp filter instead
  });
});
