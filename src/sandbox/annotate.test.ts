import { describe, expect, it } from 'vitest';
import { pathsInLine, sandboxViolationNotes, type ViolationContext } from './annotate.js';

const ctx = (o: Partial<ViolationContext> = {}): ViolationContext => ({
  cwd: '/p',
  writable: ['/p', '/s/tmp'],
  readOnly: [{ path: '/p/.git/hooks', why: '.git/hooks: runs code on git operations' }],
  hidden: ['/home/u/.ssh'],
  sessionTmpDir: '/s/tmp',
  proxyEvents: [],
  protectedChanges: [],
  proxyEnabled: true,
  allowLocalBinding: false,
  allowUnsandboxedCommands: true,
  ...o,
});

describe('pathsInLine', () => {
  it.each<[string, string[], string]>([
    ["touch: cannot touch '/etc/x': Read-only file system", ['/etc/x'], 'coreutils quotes the path'],
    ['bash: line 5: .bashrc: Read-only file system', ['.bashrc'], 'bash prefixes the path'],
    ['sh: 1: cannot create /tmp/o/f.txt: Read-only file system', ['/tmp/o/f.txt'], 'dash: no quotes'],
    ["OSError: [Errno 30] Read-only file system: '/x/y'", ['/x/y'], 'python'],
    ["Error: EROFS: read-only file system, open '/x/z'", ['/x/z'], 'node'],
    ["cp: cannot create regular file '/o/b': Read-only file system", ['/o/b'], 'cp'],
  ])('%s → %j (%s)', (line, expected) => {
    expect(pathsInLine(line)).toEqual(expected);
  });
});

describe('sandboxViolationNotes', () => {
  it.each<[string, Partial<ViolationContext>, RegExp, string]>([
    [
      "touch: cannot touch '/etc/x': Read-only file system",
      {},
      /writing to \/etc\/x was blocked by the sandbox \(not in the allowed write paths: \/p, \/s\/tmp\)\. Use \$TMPDIR \(\/s\/tmp\)/,
      'outside the writable paths',
    ],
    [
      "cp: cannot copy '/usr/a' to '/p/.git/hooks/pre-commit': Read-only file system",
      {},
      /writing to \/p\/\.git\/hooks\/pre-commit was blocked by the sandbox: \/p\/\.git\/hooks is protected/,
      'the protected destination is named, not the source',
    ],
    [
      'cat: /home/u/.ssh/id_rsa: No such file or directory',
      {},
      /\/home\/u\/\.ssh\/id_rsa is hidden by the sandbox/,
      'denyRead hides credentials',
    ],
    [
      'Error: listen EPERM: operation not permitted 127.0.0.1:3000',
      {},
      /allowLocalBinding is false/,
      'listen refused by the filter',
    ],
    [
      'socat[2] E socket(1, 1, 0): Operation not permitted',
      {},
      /Unix-domain socket was blocked/,
      'AF_UNIX refused',
    ],
    [
      'curl: (6) Could not resolve host: example.com',
      { proxyEnabled: false },
      /example\.com could not be resolved: .*network is closed/,
      'no proxy: closed network',
    ],
    [
      'curl: (6) Could not resolve host: example.com',
      {},
      /only hosts in sandbox\.network\.allowedDomains are reachable, through the proxy/,
      'a client that ignored the proxy',
    ],
    [
      'bash: connect: Connection refused',
      {},
      /direct network connection failed inside the sandbox/,
      '/dev/tcp bypassing the proxy',
    ],
  ])('%s → %s (%s)', (line, overrides, expected) => {
    expect(sandboxViolationNotes(line, ctx(overrides))).toMatch(expected);
  });

  it('nothing sandbox-related → no notes', () => {
    expect(sandboxViolationNotes('ls: cannot access x: No such file or directory\nok', ctx())).toBe('');
  });

  it('proxy refusals and protected creations are reported even when the output is silent', () => {
    const notes = sandboxViolationNotes(
      '',
      ctx({
        proxyEvents: [
          {
            atMs: 1,
            host: 'evil.test',
            port: 443,
            allowed: false,
            detail: 'evil.test:443 is not in sandbox.network.allowedDomains',
          },
          { atMs: 2, host: 'ok.test', port: 443, allowed: true, detail: 'allowed by ok.test' },
        ],
        protectedChanges: [{ path: '/p/.envrc', change: 'created' }],
      }),
    );
    expect(notes).toBe(
      [
        '[sandbox] network access to evil.test:443 was blocked by the sandbox proxy: evil.test:443 is not in sandbox.network.allowedDomains.',
        "[sandbox] the command created the protected path /p/.envrc; the sandbox blocks writes to existing protected files but cannot stop new ones being created (it never places markers in the user's tree). Tell the user, and do not rely on that file.",
        '[sandbox] If this access is really needed, explain why; the command can be retried with dangerouslyDisableSandbox: true, which asks the user for permission.',
      ].join('\n'),
    );
  });

  it('strict mode says unsandboxed retries are disabled', () => {
    expect(
      sandboxViolationNotes(
        "touch: cannot touch '/etc/x': Read-only file system",
        ctx({ allowUnsandboxedCommands: false }),
      ),
    ).toMatch(/Running outside the sandbox is disabled by policy/);
  });
});
