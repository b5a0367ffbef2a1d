/**
 * The manager's decisions and degraded modes on real code paths: bubblewrap missing (a bwrapPath
 * that does not exist), socat missing, the sandbox disabled, denyRead/allowRead/denyWrite settings.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSandboxSettings, type SandboxSettings } from '../core/sandbox-settings.js';
import { createSandboxManager } from './sandbox-manager.js';
import { runWithSandbox } from './test-support.js';

let root: string;
let project: string;
let outside: string;
let env: Record<string, string>;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-sbm-'));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  mkdirSync(project);
  mkdirSync(outside);
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(root, 'home'), LANG: 'C.UTF-8' };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const settings = (overrides: Partial<SandboxSettings> = {}): SandboxSettings => ({
  ...defaultSandboxSettings(),
  enabled: true,
  ...overrides,
});

const manager = (s: SandboxSettings) =>
  createSandboxManager({ settings: s, workingDirectories: () => [project] });

describe('bubblewrap unavailable (bwrapPath points to a missing binary: the real probe path)', () => {
  const missing = () => path.join(root, 'no-such-bwrap');

  it('allowUnsandboxedCommands: runs unsandboxed and says so once', async () => {
    const sb = manager(settings({ bwrapPath: missing() }));
    const target = path.join(outside, 'fallback.txt');
    const decision = await sb.decide({ command: 'true' });
    expect(decision).toMatchObject({ mode: 'unsandboxed', why: 'unavailable' });
    const first = await runWithSandbox(sb, { command: `echo ran > ${target}`, cwd: project, env });
    expect(readFileSync(target, 'utf8')).toBe('ran\n');
    expect(first.notes).toMatch(
      /the sandbox is unavailable \(bubblewrap could not be started .*no-such-bwrap.*\); running unsandboxed/,
    );
    const second = await runWithSandbox(sb, { command: 'true', cwd: project, env });
    expect(second.notes).toBe('');
    await sb.dispose();
  });

  it.each<[Partial<SandboxSettings>, RegExp, string]>([
    [
      { allowUnsandboxedCommands: false },
      /sandbox\.allowUnsandboxedCommands is false/,
      'strict mode refuses',
    ],
    [
      { failIfUnavailable: true },
      /sandbox\.failIfUnavailable is true/,
      'failIfUnavailable refuses even when unsandboxed commands are allowed',
    ],
  ])('%j → refuses to run (%s)', async (overrides, message) => {
    const sb = manager(settings({ bwrapPath: missing(), ...overrides }));
    const target = path.join(outside, `refused-${Math.random()}.txt`);
    expect(await sb.decide({ command: 'true' })).toMatchObject({ mode: 'refused' });
    await expect(runWithSandbox(sb, { command: `echo ran > ${target}`, cwd: project, env })).rejects.toThrow(
      message,
    );
    await expect(runWithSandbox(sb, { command: 'true', cwd: project, env })).rejects.toThrow(
      /The command was not run/,
    );
    expect(existsSync(target)).toBe(false);
    await sb.dispose();
  });
});

describe('socat unavailable: the sandbox still holds, the network is simply closed', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_q, r) => r.end('reachable'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => server.close());

  it('allow-listed hosts are unreachable and the first result says why', async () => {
    const sb = manager(
      settings({
        socatPath: path.join(root, 'no-such-socat'),
        network: { allowedDomains: [`127.0.0.1:${port}`], deniedDomains: [], allowLocalBinding: false },
      }),
    );
    const result = await runWithSandbox(sb, {
      command: `curl -sS --max-time 5 http://127.0.0.1:${port}/`,
      cwd: project,
      env,
    });
    expect(result.output).not.toContain('reachable');
    expect(result.notes).toMatch(/network is fully closed inside the sandbox \(socat is not usable/);
    const write = await runWithSandbox(sb, { command: `echo x > ${outside}/nosocat.txt`, cwd: project, env });
    expect(existsSync(path.join(outside, 'nosocat.txt'))).toBe(false);
    expect(write.notes).not.toMatch(/network is fully closed/);
    await sb.dispose();
  });
});

describe('excludedCommands (real shell analysis)', () => {
  it.each<[string, boolean, string]>([
    ['touch {T}', true, 'every part is excluded: runs outside the sandbox'],
    ['touch {T} | touch {T}', true, 'a pipeline of excluded commands'],
    ['touch {T} && echo done', false, 'a compound is excluded only when every part is'],
    ['touch {T} > /dev/null', false, 'a redirect keeps it sandboxed'],
    ['cd . && touch {T}', false, 'cd keeps it sandboxed'],
    ['echo $(touch {T})', false, 'a substitution keeps it sandboxed'],
  ])('%s → outside=%s (%s)', async (template, runsOutside) => {
    const sb = manager(settings({ excludedCommands: ['touch *'] }));
    const target = path.join(outside, `excluded-${Math.random()}.txt`);
    const command = template.replaceAll('{T}', target);
    expect((await sb.decide({ command, cwd: project })).mode).toBe(runsOutside ? 'unsandboxed' : 'sandboxed');
    await runWithSandbox(sb, { command, cwd: project, env });
    expect(existsSync(target)).toBe(runsOutside);
    await sb.dispose();
  });
});

describe('settings that change the boundary', () => {
  it('sandbox disabled: the spec is returned unchanged', async () => {
    const sb = manager(defaultSandboxSettings());
    const spec = { file: 'bash', args: ['-c', 'true'], cwd: project, env, harnessWritablePaths: [] };
    const wrapped = await sb.wrap(spec, {
      command: 'true',
      dangerouslyDisableSandbox: false,
      background: false,
    });
    expect(wrapped.spec).toBe(spec);
  });

  it('denyRead hides a directory; allowRead re-opens one file inside it; denyWrite protects a path in the project', async () => {
    const secrets = path.join(root, 'secrets');
    mkdirSync(secrets, { recursive: true });
    writeFileSync(path.join(secrets, 'private.txt'), 'PRIVATE');
    writeFileSync(path.join(secrets, 'public.txt'), 'PUBLIC');
    mkdirSync(path.join(project, 'vendor'), { recursive: true });
    writeFileSync(path.join(project, 'vendor', 'lib.js'), 'original');
    const command = 'cat $S/public.txt; echo; cat $S/private.txt; echo; echo changed > vendor/lib.js';
    const runEnv = { ...env, S: secrets };
    const outsideRun = await runWithSandbox(undefined, { command, cwd: project, env: runEnv });
    expect(outsideRun.output).toContain('PRIVATE');
    writeFileSync(path.join(project, 'vendor', 'lib.js'), 'original');
    const sb = manager(
      settings({
        filesystem: {
          allowWrite: [],
          denyWrite: ['./vendor'],
          denyRead: [secrets],
          allowRead: [path.join(secrets, 'public.txt')],
        },
      }),
    );
    const result = await runWithSandbox(sb, { command, cwd: project, env: runEnv });
    expect(result.output).toContain('PUBLIC');
    expect(result.output).not.toContain('PRIVATE');
    expect(readFileSync(path.join(project, 'vendor', 'lib.js'), 'utf8')).toBe('original');
    expect(result.notes).toMatch(/private\.txt is hidden by the sandbox/);
    expect(result.notes).toMatch(/vendor is protected \(listed in sandbox\.filesystem\.denyWrite\)/);
    await sb.dispose();
  });

  it("the sandbox's own files stay read-only even when the project contains the temp root", async () => {
    const tmpRoot = path.join(project, 'tmp-root');
    mkdirSync(tmpRoot, { recursive: true });
    const sb = createSandboxManager({ settings: settings(), workingDirectories: () => [project], tmpRoot });
    const command =
      'R=$(dirname "$TMPDIR"); : > "$R/seccomp.bpf"; echo ok > "$TMPDIR/t"; cat "$TMPDIR/t"; wc -c < "$R/seccomp.bpf"';
    const result = await runWithSandbox(sb, { command, cwd: project, env });
    const lines = result.output.trim().split('\n');
    expect(lines).toContain('ok');
    expect(Number(lines.at(-1))).toBeGreaterThan(0);
    expect(result.notes).toMatch(
      /seccomp\.bpf was blocked by the sandbox: .* is protected \(the sandbox's own files/,
    );
    await sb.dispose();
  });

  it('allowWrite adds a writable directory outside the project', async () => {
    const extra = path.join(root, 'extra-writable');
    mkdirSync(extra, { recursive: true });
    const sb = manager(
      settings({ filesystem: { allowWrite: [extra], denyWrite: [], denyRead: [], allowRead: [] } }),
    );
    const result = await runWithSandbox(sb, { command: `echo ok > ${extra}/f.txt`, cwd: project, env });
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(extra, 'f.txt'), 'utf8')).toBe('ok\n');
    await sb.dispose();
  });

  it('the harness files (the Bash tool cwd file) are writable, created when missing', async () => {
    const sb = manager(settings());
    const cwdFile = path.join(root, `cwd-${Math.random()}`);
    const result = await runWithSandbox(sb, {
      command: `pwd -P > ${cwdFile}`,
      cwd: project,
      env,
      harnessWritablePaths: [cwdFile],
    });
    expect(result.code).toBe(0);
    expect(readFileSync(cwdFile, 'utf8').trim()).toBe(project);
    await sb.dispose();
  });
});
