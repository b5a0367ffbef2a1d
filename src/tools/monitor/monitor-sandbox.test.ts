/**
 * A Monitor `command` runs inside the session's OS sandbox, as Bash does: the same command through
 * a Monitor with and without the sandbox, so the refusal is proven real by the unsandboxed run.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryOptions, SessionInbox } from '../../core/index.js';
import { defaultSandboxSettings } from '../../core/sandbox-settings.js';
import { createSessionServices } from '../../runtime/index.js';
import { createSandboxManager, type SandboxManager } from '../../sandbox/index.js';
import { makeTestSession, runToolOk, type TestSession } from '../../testing/tool-harness.js';
import { monitorPorts } from '../monitor-ports.js';
import { createMonitorTool, type MonitorOutput } from './monitor.tool.js';

let session: TestSession;
let sandbox: SandboxManager;
let outside: string;
let events: string[];

beforeEach(async () => {
  events = [];
  const inbox: SessionInbox = {
    deliver: (text: string, options?: DeliveryOptions) => {
      events.push(text);
      options?.onTaken?.();
    },
    hold: () => undefined,
  };
  session = await makeTestSession({ services: createSessionServices({ inbox }) });
  outside = path.join(path.dirname(session.root), 'outside');
  await mkdir(outside, { recursive: true });
  sandbox = createSandboxManager({
    settings: { ...defaultSandboxSettings(), enabled: true },
    workingDirectories: () => [session.state().projectRoot],
  });
});
afterEach(async () => {
  await session.cleanup();
  await sandbox.dispose();
});

const tool = (withSandbox: boolean) =>
  createMonitorTool({ ports: monitorPorts({ killGraceMs: 500, ...(withSandbox ? { sandbox } : {}) }) });

async function watch(withSandbox: boolean, command: string): Promise<MonitorOutput> {
  const { data } = await runToolOk<MonitorOutput>(
    tool(withSandbox),
    { description: 'sandbox probe', command },
    session.context,
  );
  await session.services.tasks.waitForEnd(data.taskId, 60_000);
  return data;
}

describe('Monitor + sandbox', () => {
  it('a write outside the working directories fails inside the sandbox and works without it', async () => {
    const target = path.join(outside, 'written');
    const command = `echo start; echo x > ${target} && echo wrote || echo refused`;
    const sandboxed = tool(true);
    expect(
      (await sandboxed.describeCall({ description: 'x', command: 'ls' }, session.context)).sandboxed,
    ).toBe(true);
    const inside = await watch(true, command);
    expect(existsSync(target)).toBe(false);
    expect(session.state().tasks[inside.taskId]).toMatchObject({ status: 'completed' });
    const sandboxedEvents = events.splice(0).join('\n');
    expect(sandboxedEvents).toContain('refused');
    expect(sandboxedEvents).not.toContain('wrote');
    await watch(false, command);
    expect(existsSync(target)).toBe(true);
    expect(events.join('\n')).toContain('wrote');
  });
});
