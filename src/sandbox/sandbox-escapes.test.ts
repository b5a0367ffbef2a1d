/**
 * Real escapes, really tried: every row runs the same command twice — without
 * the sandbox, where the escape must SUCCEED (proving the test can fail), and through the
 * sandbox, where it must FAIL and the notes must say what the sandbox refused.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxSettings, type SandboxSettings } from '../core/sandbox-settings.js';
import { probeSandbox } from './availability.js';
import { createSandboxManager, type SandboxManager } from './sandbox-manager.js';
import { type RunResult, runWithSandbox } from './test-support.js';

let root: string;
let project: string;
let outside: string;
let home: string;
let env: Record<string, string>;
let sandbox: SandboxManager;
let allowedPort: number;
let deniedPort: number;
let unixSocket: string;
let gitConfig: string;
const servers: { close(): void }[] = [];
const SECRET = `secret-${process.pid}-${Date.now()}`;

function listenHttp(body: string): Promise<number> {
  const server = http.createServer((_req, res) => res.end(body));
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

function settingsWith(overrides: Partial<SandboxSettings> = {}): SandboxSettings {
  return {
    ...defaultSandboxSettings(),
    enabled: true,
    ...overrides,
    network: {
      allowedDomains: [`127.0.0.1:${allowedPort}`],
      deniedDomains: [],
      allowLocalBinding: false,
      ...overrides.network,
    },
  };
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-escape-'));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  home = path.join(root, 'home');
  mkdirSync(project, { recursive: true });
  execFileSync('git', ['init', '-q', project]);
  gitConfig = readFileSync(path.join(project, '.git', 'config'), 'utf8');
  writeFileSync(path.join(project, '.bashrc'), '# project rc\n');
  writeFileSync(path.join(project, '.env'), 'API_URL=https://example.invalid\n');
  mkdirSync(outside);
  symlinkSync(outside, path.join(project, 'link'));
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), `-----BEGIN FAKE-KEY ${SECRET}-----\n`);
  allowedPort = await listenHttp(`allowed-body ${SECRET}\n`);
  deniedPort = await listenHttp(`denied-body ${SECRET}\n`);
  unixSocket = path.join(root, 'host.sock');
  const unixServer = net.createServer((s) => s.end(`unix-body ${SECRET}\n`));
  servers.push(unixServer);
  await new Promise<void>((resolve) => unixServer.listen(unixSocket, resolve));
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' };
  sandbox = createSandboxManager({ settings: settingsWith(), workingDirectories: () => [project] });
});

afterAll(async () => {
  await sandbox?.dispose();
  for (const s of servers) s.close();
  rmSync(root, { recursive: true, force: true });
});

const run = (sb: SandboxManager | undefined, command: string, extra: { env?: Record<string, string> } = {}) =>
  runWithSandbox(sb, { command, cwd: project, env: extra.env ?? env });

it('bubblewrap is available on this machine (.ci/run installs it; without it every escape test below is moot)', async () => {
  const availability = await probeSandbox();
  expect(availability).toMatchObject({ available: true, reason: '', proxyBridge: true });
});

interface EscapeRow {
  name: string;
  command: () => string;
  /** Did the escape work? */
  escaped: (result: RunResult) => boolean;
  /** The sandbox's notes must match this. */
  note: RegExp;
  reset?: () => void;
}

const outsideFile = () => path.join(outside, 'pwned.txt');
const wroteFile = (file: string) => existsSync(file) && readFileSync(file, 'utf8').includes('pwned');
const wroteOutside = () => wroteFile(outsideFile());
const resetOutside = () => rmSync(outsideFile(), { force: true });

const rows: EscapeRow[] = [
  {
    name: 'write outside the project',
    command: () => `echo pwned > ${outsideFile()}`,
    escaped: wroteOutside,
    note: /writing to .*outside\/pwned\.txt was blocked by the sandbox \(not in the allowed write paths/,
    reset: resetOutside,
  },
  {
    name: 'append to a protected file inside the project (.bashrc)',
    command: () => 'echo pwned >> .bashrc',
    escaped: () => readFileSync(path.join(project, '.bashrc'), 'utf8').includes('pwned'),
    note: /\.bashrc is protected \(\.bashrc: shell start-up file/,
    reset: () => writeFileSync(path.join(project, '.bashrc'), '# project rc\n'),
  },
  {
    name: 'overwrite a protected .env inside the project',
    command: () => 'echo "API_URL=https://pwned.invalid" > .env',
    escaped: () => readFileSync(path.join(project, '.env'), 'utf8').includes('pwned'),
    note: /\.env is protected \(\.env\*: environment file/,
    reset: () => writeFileSync(path.join(project, '.env'), 'API_URL=https://example.invalid\n'),
  },
  {
    name: 'rewrite .git/config (core.fsmonitor would run code on the next git command)',
    command: () =>
      'git config core.fsmonitor "echo pwned" 2>&1 || echo "[core] fsmonitor = pwned" >> .git/config',
    escaped: () => readFileSync(path.join(project, '.git', 'config'), 'utf8').includes('pwned'),
    note: /\.git\/config is protected/,
    reset: () => writeFileSync(path.join(project, '.git', 'config'), gitConfig),
  },
  {
    name: 'plant a git hook (.git/hooks/pre-commit)',
    command: () => 'printf "#!/bin/sh\\necho pwned\\n" > .git/hooks/pre-commit',
    escaped: () => existsSync(path.join(project, '.git', 'hooks', 'pre-commit')),
    note: /\.git\/hooks is protected/,
    reset: () => rmSync(path.join(project, '.git', 'hooks', 'pre-commit'), { force: true }),
  },
  {
    name: 'read ~/.ssh/id_rsa (a fake key in a temp HOME)',
    command: () => 'cat ~/.ssh/id_rsa',
    escaped: (r) => r.output.includes(`FAKE-KEY ${SECRET}`),
    note: /\.ssh\/id_rsa is hidden by the sandbox/,
  },
  {
    name: 'write through a symlink in the project that points out of it',
    command: () => 'echo pwned > link/pwned.txt',
    escaped: wroteOutside,
    note: /writing to .*outside\/pwned\.txt was blocked by the sandbox/,
    reset: resetOutside,
  },
  {
    name: 'curl a 127.0.0.1 server that is not on the allowlist',
    command: () => `curl -sS --max-time 10 http://127.0.0.1:${deniedPort}/`,
    escaped: (r) => r.output.includes(`denied-body ${SECRET}`),
    note: new RegExp(
      `network access to 127\\.0\\.0\\.1:\\d+ was blocked by the sandbox proxy: .* not in sandbox\\.network\\.allowedDomains`,
    ),
  },
  {
    name: 'bypass the proxy with a raw TCP connection to an allow-listed host port (bash /dev/tcp)',
    command: () =>
      `exec 3<>/dev/tcp/127.0.0.1/${allowedPort} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`,
    escaped: (r) => r.output.includes(`allowed-body ${SECRET}`),
    note: /direct network connection failed inside the sandbox/,
  },
  {
    name: 'connect to a host Unix socket (the docker.sock / ssh-agent route)',
    command: () =>
      `${process.execPath} -e "require('net').connect(process.argv[1]).on('data', (d) => process.stdout.write(d)).on('error', (e) => { console.error(e.message); process.exit(1); })" ${unixSocket}`,
    escaped: (r) => r.output.includes(`unix-body ${SECRET}`),
    note: /Unix-domain socket was blocked by the sandbox/,
  },
  {
    name: 'a child process (sh -c) writes outside',
    command: () => `sh -c 'echo pwned > ${outsideFile()}'`,
    escaped: wroteOutside,
    note: /outside\/pwned\.txt was blocked by the sandbox/,
    reset: resetOutside,
  },
  {
    name: 'a background job (&) writes outside',
    command: () => `(sleep 0.1; echo pwned > ${outsideFile()}) & wait`,
    escaped: wroteOutside,
    note: /outside\/pwned\.txt was blocked by the sandbox/,
    reset: resetOutside,
  },
  {
    name: 'a child process (sh -c) curls a host that is not allowed',
    command: () => `sh -c 'curl -sS --max-time 10 http://127.0.0.1:${deniedPort}/'`,
    escaped: (r) => r.output.includes(`denied-body ${SECRET}`),
    note: /was blocked by the sandbox proxy/,
  },
  {
    name: 'a background job (&) reads the fake key',
    command: () => 'cat ~/.ssh/id_rsa & wait',
    escaped: (r) => r.output.includes(`FAKE-KEY ${SECRET}`),
    note: /hidden by the sandbox/,
  },
];

describe.each(rows)('escape: $name', (row) => {
  it('succeeds without the sandbox (the test is real)', async () => {
    row.reset?.();
    const result = await run(undefined, row.command());
    expect(row.escaped(result), result.output).toBe(true);
    row.reset?.();
  });

  it('fails inside the sandbox and the notes say what was refused', async () => {
    row.reset?.();
    const result = await run(sandbox, row.command());
    expect(row.escaped(result), result.output).toBe(false);
    expect(result.notes).toMatch(row.note);
    row.reset?.();
  });
});

describe('what stays allowed inside the sandbox', () => {
  it('an allow-listed 127.0.0.1:PORT is reachable through the proxy (and only through it)', async () => {
    const result = await run(sandbox, `curl -sS --max-time 10 http://127.0.0.1:${allowedPort}/`);
    expect(result.output).toContain(`allowed-body ${SECRET}`);
    expect(result.code).toBe(0);
    expect(result.notes).toBe('');
  });

  it('the project, $TMPDIR and git (objects, refs, index) stay writable; the temp dir is per session', async () => {
    const result = await run(
      sandbox,
      'echo ok > made.txt && echo ok > "$TMPDIR/t.txt" && git -c user.name=t -c user.email=t@t add made.txt && git -c user.name=t -c user.email=t@t commit -qm m && git log --oneline | wc -l && echo "$TMPDIR"',
    );
    expect(result.code, result.output).toBe(0);
    expect(readFileSync(path.join(project, 'made.txt'), 'utf8')).toBe('ok\n');
    const tmpDir = result.output.trim().split('\n').at(-1) as string;
    expect(tmpDir).toMatch(/gantry-sandbox-[^/]+\/tmp$/);
    expect(readFileSync(path.join(tmpDir, 't.txt'), 'utf8')).toBe('ok\n');
  });

  it('creating a new protected file (.envrc) cannot be blocked without touching the tree, so it is reported', async () => {
    rmSync(path.join(project, '.envrc'), { force: true });
    const result = await run(sandbox, 'echo "export X=1" > .envrc');
    expect(result.notes).toMatch(/created the protected path .*\/\.envrc/);
    rmSync(path.join(project, '.envrc'), { force: true });
  });
});

describe('the seccomp filter is really loaded', () => {
  // perl (Debian's perl-base is essential) makes the raw ioctl; stdin is not a terminal, so outside
  // the answer is ENOTTY (25) and inside the filter answers first with EPERM (1).
  const command = `perl -e 'my $c = "x"; ioctl(STDIN, 0x5412, $c); print $! + 0' < /dev/null`;
  it('ioctl(TIOCSTI) → ENOTTY outside, EPERM inside (keystroke injection into a terminal)', async () => {
    expect((await run(undefined, command)).output.trim()).toBe('25');
    expect((await run(sandbox, command)).output.trim()).toBe('1');
  });
});

describe('loopback policy', () => {
  // Start a server in the background, wait until it is listening or has died, then fetch from it.
  const serveAndFetch = (port: number) =>
    [
      'R="$TMPDIR/ready-$$"',
      `${process.execPath} -e "require('http').createServer((q, r) => r.end('inner-ok')).listen(${port}, '127.0.0.1', () => require('fs').writeFileSync(process.argv[1], ''))" "$R" &`,
      'while [ ! -e "$R" ] && kill -0 $! 2>/dev/null; do sleep 0.02; done',
      `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${port}/`,
      'kill $! 2>/dev/null; wait',
    ].join('\n');

  it('allowLocalBinding false: nothing can listen inside, and the note says why', async () => {
    const result = await run(sandbox, serveAndFetch(45071));
    expect(result.output).not.toContain('inner-ok');
    expect(result.output).toMatch(/EPERM/);
    expect(result.notes).toMatch(/allowLocalBinding is false/);
  });

  it('allowLocalBinding true: a server on the sandbox loopback is reachable from inside (with --noproxy)', async () => {
    const local = createSandboxManager({
      settings: settingsWith({ network: { allowedDomains: [], deniedDomains: [], allowLocalBinding: true } }),
      workingDirectories: () => [project],
    });
    try {
      const result = await run(local, serveAndFetch(45072));
      expect(result.output).toContain('inner-ok');
    } finally {
      await local.dispose();
    }
  });

  it("the sandbox's own loopback is not the host's: a host server is unreachable without the proxy", async () => {
    const result = await run(sandbox, `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${allowedPort}/`);
    expect(result.output).not.toContain('allowed-body');
  });
});

describe('dangerouslyDisableSandbox', () => {
  it('honoured when allowUnsandboxedCommands is true: the command runs outside', async () => {
    resetOutside();
    const result = await runWithSandbox(sandbox, {
      command: `echo pwned > ${outsideFile()}`,
      cwd: project,
      env,
      dangerouslyDisableSandbox: true,
    });
    expect(result.code).toBe(0);
    expect(wroteOutside()).toBe(true);
    resetOutside();
  });

  it('ignored when allowUnsandboxedCommands is false (strict mode): still sandboxed', async () => {
    const strict = createSandboxManager({
      settings: settingsWith({ allowUnsandboxedCommands: false }),
      workingDirectories: () => [project],
    });
    try {
      resetOutside();
      const result = await runWithSandbox(strict, {
        command: `echo pwned > ${outsideFile()}`,
        cwd: project,
        env,
        dangerouslyDisableSandbox: true,
      });
      expect(wroteOutside()).toBe(false);
      expect(result.notes).toMatch(/Running outside the sandbox is disabled by policy/);
    } finally {
      await strict.dispose();
    }
  });
});

/** Runs the fixture in its own Node process (with a secret in ITS environment only). */
function startChild(input: { command: string; sandboxed: boolean }) {
  const script = path.join(import.meta.dirname, 'test-fixtures', 'sandboxed-child.ts');
  const repoRoot = path.resolve(import.meta.dirname, '..', '..');
  return spawn(
    process.execPath,
    ['--import', 'tsx', script, JSON.stringify({ project, tmpRoot: root, ...input })],
    {
      cwd: repoRoot,
      env: { ...process.env, GANTRY_TEST_PARENT_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

async function childResult(input: {
  command: string;
  sandboxed: boolean;
}): Promise<{ code: number; output: string }> {
  const child = startChild(input);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  await new Promise((resolve) => child.once('close', resolve));
  const line = out.trim().split('\n').at(-1);
  if (!line) throw new Error(`fixture printed nothing: ${err}`);
  return JSON.parse(line) as { code: number; output: string };
}

describe("the parent's environment (/proc/<parent>/environ)", () => {
  const command = `tr '\\0' '\\n' < /proc/{PARENT_PID}/environ | grep GANTRY_TEST_PARENT_SECRET; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ${SECRET}`;

  it('readable without the sandbox (the test is real)', async () => {
    const result = await childResult({ command, sandboxed: false });
    expect(result.output).toContain(`GANTRY_TEST_PARENT_SECRET=${SECRET}`);
  });

  it('not readable inside: a fresh /proc in its own pid namespace shows no process of the host', async () => {
    const result = await childResult({ command, sandboxed: true });
    expect(result.output).not.toContain(SECRET);
    expect(result.output.trim().split('\n').at(-1)).toBe('0');
  });
});

/** Pids of host processes whose command line is exactly `sleep <marker>`. */
function sleepers(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1') === `sleep\0${marker}\0`) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe('the sandbox dies with its parent', () => {
  it.each([
    [false, true, 'without the sandbox an orphaned sleep survives its killed parent (the test is real)'],
    [
      true,
      false,
      'inside the sandbox the sleep dies with the killed parent (--die-with-parent, pid namespace)',
    ],
  ])('sandboxed=%s → survives=%s (%s)', async (sandboxed, survives) => {
    const marker = `${4000 + Math.floor(Math.random() * 1000)}.${process.pid}${sandboxed ? 1 : 0}`;
    const child = startChild({ command: `sleep ${marker}`, sandboxed });
    await waitFor(() => sleepers(marker).length > 0, 'the sleep to start');
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await exited;
    if (survives) {
      const alive = sleepers(marker);
      expect(alive.length).toBeGreaterThan(0);
      for (const pid of alive) process.kill(pid, 'SIGKILL');
    } else {
      await waitFor(() => sleepers(marker).length === 0, 'the sandboxed sleep to die');
      expect(sleepers(marker)).toEqual([]);
    }
  });
});
