/**
 * The Bash tool with the OS sandbox plugged into its seam (
 * the Claude Code sandboxing docs): the same calls through `createBashTool()` and `createBashTool({ sandbox })`, so each
 * refusal is proven real by the unsandboxed run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentText } from '../../core/index.js';
import { defaultSandboxSettings, type SandboxSettings } from '../../core/sandbox-settings.js';
import { createSandboxManager, type SandboxManager } from '../../sandbox/index.js';
import { makeTestSession, runTool, type TestSession } from '../../testing/tool-harness.js';
import type { BashOutput } from './bash-output.js';
import { createBashTool } from './bash.tool.js';

let session: TestSession;
let sandbox: SandboxManager;
let outside: string;

const settings = (o: Partial<SandboxSettings> = {}): SandboxSettings => ({
  ...defaultSandboxSettings(),
  enabled: true,
  autoAllowBashIfSandboxed: true,
  ...o,
});

beforeEach(async () => {
  session = await makeTestSession();
  outside = path.join(path.dirname(session.root), 'outside');
  await mkdir(outside, { recursive: true });
  sandbox = createSandboxManager({
    settings: settings(),
    workingDirectories: () => [session.state().projectRoot, ...session.state().additionalDirectories],
  });
});

afterEach(async () => {
  await session.cleanup();
  await sandbox.dispose();
});

const tool = (withSandbox: boolean) =>
  createBashTool({ killGraceMs: 500, progressIntervalMs: 0, ...(withSandbox ? { sandbox } : {}) });

async function call(withSandbox: boolean, input: Record<string, unknown>) {
  return runTool<BashOutput>(tool(withSandbox), input, session.context);
}

describe('Bash tool + sandbox', () => {
  it('describeCall says whether the call will run sandboxed (the permission engine reads it)', async () => {
    const bash = tool(true);
    const sandboxed = await bash.describeCall({ command: 'ls' }, session.context);
    const escaped = await bash.describeCall(
      { command: 'ls', dangerouslyDisableSandbox: true },
      session.context,
    );
    expect(sandboxed.sandboxed).toBe(true);
    expect(escaped.sandboxed).toBe(false);
    expect((await tool(false).describeCall({ command: 'ls' }, session.context)).sandboxed).toBeUndefined();
  });

  it('a write outside the project succeeds unsandboxed and fails sandboxed, with a note the model can act on', async () => {
    const target = path.join(outside, 'out.txt');
    const free = await call(false, { command: `echo pwned > ${target}` });
    expect(free.ok).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('pwned\n');
    await rm(target);

    const boxed = await call(true, { command: `echo pwned > ${target}` });
    expect(boxed.ok).toBe(false);
    expect(existsSync(target)).toBe(false);
    expect(boxed.record.status).toBe('error');
    const text = contentText(boxed.content);
    expect(text).toMatch(/Read-only file system/);
    expect(text).toMatch(
      /\[sandbox\] writing to .*outside\/out\.txt was blocked by the sandbox \(not in the allowed write paths/,
    );
    expect(text).toMatch(/dangerouslyDisableSandbox: true/);
  });

  it('dangerouslyDisableSandbox runs the command outside (allowUnsandboxedCommands is true by default)', async () => {
    const target = path.join(outside, 'escape.txt');
    const result = await call(true, { command: `echo ok > ${target}`, dangerouslyDisableSandbox: true });
    expect(result.ok).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('ok\n');
  });

  it('the project stays writable and `cd` inside it persists (the harness cwd file is writable inside)', async () => {
    await mkdir(path.join(session.root, 'sub'));
    const first = await call(true, { command: 'cd sub && echo made > here.txt && pwd' });
    expect(first.ok).toBe(true);
    expect(await readFile(path.join(session.root, 'sub', 'here.txt'), 'utf8')).toBe('made\n');
    expect(session.state().cwd).toBe(path.join(session.root, 'sub'));
  });

  it('a timeout stops the sandboxed command and everything it started', async () => {
    const marker = `${50 + Math.floor(Math.random() * 40)}.${process.pid}`;
    const result = await call(true, {
      command: `sh -c 'sleep ${marker}1' & sleep ${marker}2; wait`,
      timeout: 1500,
    });
    expect(result.ok).toBe(false);
    const alive = readdirSync('/proc').filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith(`sleep\0${marker}`);
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });

  it('a background task is sandboxed too', async () => {
    const target = path.join(outside, 'bg.txt');
    const started = await call(true, { command: `echo pwned > ${target}`, run_in_background: true });
    expect(started.ok).toBe(true);
    const done = await session.nextNotification();
    expect(done.task.status).toBe('failed');
    expect(existsSync(target)).toBe(false);
  });
});
