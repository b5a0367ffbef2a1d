/**
 * Session services: disposal in reverse order with failures collected, idempotence, and the
 * background tasks of the session really stopped (a real `run_in_background` Bash command).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestSession, runToolOk, type TestSession } from '../testing/tool-harness.js';
import { isProcessAlive } from '../tools/bash/exec.js';
import { createBashTool } from '../tools/bash/bash.tool.js';
import { createSessionServices, TASKS_RESOURCE } from './session-services.js';

describe('createSessionServices: disposal', () => {
  it('disposes resources in reverse order of registration, collecting failures without stopping', async () => {
    const services = createSessionServices();
    const order: string[] = [];
    services.register('first', { dispose: () => void order.push('first') });
    services.register('broken', {
      dispose: async () => {
        order.push('broken');
        throw new Error('cannot close');
      },
    });
    services.register('last', { dispose: async () => void order.push('last') });
    expect(services.names()).toEqual([TASKS_RESOURCE, 'first', 'broken', 'last']);
    const failures = await services.dispose();
    expect(order).toEqual(['last', 'broken', 'first']);
    expect(failures.map((f) => [f.name, (f.error as Error).message])).toEqual([['broken', 'cannot close']]);
  });

  it('is idempotent: a second dispose returns the first one’s result and disposes nothing again', async () => {
    const services = createSessionServices();
    let count = 0;
    services.register('counted', { dispose: () => void count++ });
    const first = services.dispose();
    const second = services.dispose();
    expect(second).toBe(first);
    await first;
    expect(count).toBe(1);
    expect(services.disposed).toBe(true);
  });

  it('refuses a duplicate name, and any registration after dispose', async () => {
    const services = createSessionServices();
    services.register('mcp:x', { dispose: () => undefined });
    expect(() => services.register('mcp:x', { dispose: () => undefined })).toThrow(/already registered/);
    await services.dispose();
    expect(() => services.register('mcp:y', { dispose: () => undefined })).toThrow(/disposed/);
  });

  it('holds the model client it was given', () => {
    const modelClient = {
      provider: 'test',
      stream: () => (async function* () {})(),
      countTokens: async () => 0,
    };
    expect(createSessionServices({ modelClient }).modelClient).toBe(modelClient);
    expect(createSessionServices().modelClient).toBeUndefined();
  });
});

describe('createSessionServices: background tasks', () => {
  let session: TestSession;
  beforeEach(async () => {
    session = await makeTestSession();
  });
  afterEach(async () => {
    await session.cleanup();
  });

  it('dispose() kills the session’s running background processes, and later tasks are refused', async () => {
    const bash = createBashTool({ killGraceMs: 200 });
    const run = await runToolOk<{ backgroundTaskId: string }>(
      bash,
      { command: 'echo $$ > pid.txt; exec sleep 300', run_in_background: true },
      session.context,
    );
    const id = run.data.backgroundTaskId;
    expect(session.services.tasks.isRunning(id)).toBe(true);
    const { readFile } = await import('node:fs/promises');
    const pidFile = `${session.root}/pid.txt`;
    let pid = 0;
    while (!pid) pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    expect(isProcessAlive(pid)).toBe(true);
    expect(await session.services.dispose()).toEqual([]);
    expect(isProcessAlive(pid)).toBe(false);
    expect(session.services.tasks.runningIds()).toEqual([]);
    const refused = await runToolOk(
      bash,
      { command: 'sleep 300', run_in_background: true },
      session.context,
    ).catch((error: Error) => error.message);
    expect(refused).toMatch(/the session is closed/);
  });

  it('each session has its own registry: a task of one is unknown to another', async () => {
    const other = await makeTestSession();
    try {
      const bash = createBashTool();
      const run = await runToolOk<{ backgroundTaskId: string }>(
        bash,
        { command: 'sleep 300', run_in_background: true },
        session.context,
      );
      expect(session.services.tasks.has(run.data.backgroundTaskId)).toBe(true);
      expect(other.services.tasks.has(run.data.backgroundTaskId)).toBe(false);
    } finally {
      await other.cleanup();
    }
  });
});
