/**
 * A background task whose shell exited while processes it started still run (`sleep 30 & exit 3`):
 * the task listing says exactly that — the command exited with code N and how many processes are
 * left — until they end by themselves (then the task ends with the command's code) or TaskStop
 * stops them. Real processes; each test kills its own leftovers with killMarked.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackgroundTaskInfo } from '../../core/index.js';
import { killMarked, processesWithMarker, uniqueSleepMarker, waitFor } from '../../testing/processes.js';
import { makeTestSession, runTool, type TestSession } from '../../testing/tool-harness.js';
import { createTaskOutputTool, type TaskOutputData } from '../tasks/task-output.tool.js';
import { createTaskStopTool, type TaskStopData } from '../tasks/task-stop.tool.js';
import { startBackgroundCommand } from './run-background.js';

let session: TestSession;
const markers: string[] = [];
beforeEach(async () => {
  session = await makeTestSession();
});
afterEach(async () => {
  for (const m of markers.splice(0)) killMarked(m);
  await session.cleanup();
});

function marker(): string {
  const m = uniqueSleepMarker();
  markers.push(m);
  return m;
}

async function start(command: string) {
  return startBackgroundCommand({
    command,
    description: 'leftovers',
    cwd: session.root,
    timeoutMs: 60_000,
    graceMs: 500,
    context: session.context,
    dangerouslyDisableSandbox: false,
  });
}

const task = (id: string): BackgroundTaskInfo => session.state().tasks[id] as BackgroundTaskInfo;

/** Waits (bounded) until the command's shell has exited and the task records it. */
async function leaderExited(id: string): Promise<BackgroundTaskInfo> {
  expect(
    await waitFor(() => task(id).leaderExitCode !== undefined || task(id).status !== 'running', 10_000),
  ).toBe(true);
  return task(id);
}

async function peek(id: string) {
  const result = await runTool<TaskOutputData>(
    createTaskOutputTool(),
    { task_id: id, block: false },
    session.context,
  );
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('a background task whose shell exited while processes it started still run', () => {
  it('is listed as running with the exit code and the count left; TaskStop stops them and the task is killed', async () => {
    const m = marker();
    const { taskId } = await start(`sleep ${m} & sleep ${m} & exit 3`);
    expect(await waitFor(() => processesWithMarker(m).length === 2, 10_000)).toBe(true);
    expect(await leaderExited(taskId)).toMatchObject({
      status: 'running',
      leaderExitCode: 3,
      processesLeft: 2,
    });
    expect(session.context.services.tasks.runningIds()).toContain(taskId);

    const listed = await peek(taskId);
    expect(listed.data.retrieval_status).toBe('not_ready');
    expect(listed.data.task).toMatchObject({ status: 'running', leaderExitCode: 3, processesLeft: 2 });
    expect(listed.content).toContain('<status>running</status>');
    expect(listed.content).toContain(
      'The command exited with code 3, but 2 processes it started are still running (TaskStop stops them).',
    );

    const ended = session.nextNotification();
    const stop = await runTool<TaskStopData>(createTaskStopTool(), { task_id: taskId }, session.context);
    expect(stop.ok && stop.data.message).toBe(
      `Successfully stopped task: ${taskId} (sleep ${m} & sleep ${m} & exit 3); the command had exited with code 3, its 2 remaining processes were stopped`,
    );
    expect(processesWithMarker(m)).toEqual([]);
    expect((await ended).task).toMatchObject({ status: 'killed', exitCode: 3 });
    expect(task(taskId)).toMatchObject({ status: 'killed', exitCode: 3 });
    expect(session.context.services.tasks.runningIds()).not.toContain(taskId);
  });

  it.each([
    ['exit 3 with a member left: the task fails with the command’s code once the member ends', 3, 'failed'],
    ['exit 0 with a member left: the task completes once the member ends', 0, 'completed'],
  ])('%s', async (_reason, code, status) => {
    const go = path.join(session.root, 'go');
    const done = path.join(session.root, 'member-done');
    const { taskId } = await start(
      `(while [ ! -f ${go} ]; do sleep 0.02; done; echo > ${done}) & exit ${code}`,
    );
    const left = await leaderExited(taskId);
    expect(left).toMatchObject({ status: 'running', leaderExitCode: code });
    // The subshell, and at times its `sleep 0.02`.
    expect(left.processesLeft).toBeGreaterThan(0);
    const ended = session.nextNotification();
    await writeFile(go, '');
    const notification = await ended;
    expect(existsSync(done)).toBe(true);
    expect(notification.task).toMatchObject({ status, exitCode: code });
    const listed = await peek(taskId);
    expect(listed.data).toMatchObject({ retrieval_status: 'success', task: { status, exitCode: code } });
    expect(listed.content).not.toContain('still running');
    const stop = await runTool(createTaskStopTool(), { task_id: taskId }, session.context);
    expect(!stop.ok && stop.error).toMatch(
      new RegExp(`is not running \\(status: ${status}, exit code ${code}\\)`),
    );
  });

  it('TaskOutput with block waits for the members too, not only for the shell', async () => {
    const go = path.join(session.root, 'go');
    const { taskId } = await start(
      `(while [ ! -f ${go} ]; do sleep 0.02; done; echo member-out) & echo shell-out; exit 5`,
    );
    await leaderExited(taskId);
    const waiting = runTool<TaskOutputData>(
      createTaskOutputTool(),
      { task_id: taskId, block: true, timeout: 60_000 },
      session.context,
    );
    await writeFile(go, '');
    const result = await waiting;
    expect(result.ok && result.data).toMatchObject({
      retrieval_status: 'success',
      task: { status: 'failed', exitCode: 5, output: 'shell-out\nmember-out' },
    });
  });

  it('a shell that leaves nothing behind ends the task at once, with no note', async () => {
    const ended = session.nextNotification();
    const { taskId } = await start('exit 3');
    expect((await ended).task).toMatchObject({ status: 'failed', exitCode: 3 });
    expect(task(taskId).leaderExitCode).toBeUndefined();
    expect(task(taskId).processesLeft).toBeUndefined();
  });
});
