import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../bash/exec.js';
import { startBackgroundCommand } from '../bash/run-background.js';
import { makeTestSession, runTool, type TestSession } from '../../testing/tool-harness.js';
import { formatTaskNotification } from './task-manager.js';
import { createTaskOutputTool, type TaskOutputData } from './task-output.tool.js';
import { createTaskStopTool, type TaskStopData } from './task-stop.tool.js';

let session: TestSession;
beforeEach(async () => {
  session = await makeTestSession();
});
afterEach(async () => {
  await session.cleanup();
});

async function start(command: string, extra: { timeoutMs?: number; description?: string } = {}) {
  return startBackgroundCommand({
    command,
    description: extra.description ?? 'test task',
    cwd: session.root,
    timeoutMs: extra.timeoutMs ?? 60_000,
    graceMs: 500,
    context: session.context,
    dangerouslyDisableSandbox: false,
  });
}

/** Waits until `file` contains `text` (a condition, not a duration). */
async function waitForText(file: string, text: string): Promise<void> {
  for (;;) {
    if ((await readFile(file, 'utf8').catch(() => '')).includes(text)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('background Bash tasks', () => {
  it('returns at once with an id, registers the task, and notifies the host when it ends', async () => {
    const ended = session.nextNotification();
    const marker = path.join(session.root, 'go');
    const task = await start(
      `echo started; while [ ! -f ${marker} ]; do sleep 0.02; done; echo finished; exit 4`,
      {
        description: 'Wait for the marker',
      },
    );
    expect(task.taskId).toMatch(/^b[0-9a-f]{6}$/);
    expect(task.outputFile).toBe(path.join(session.sessionDir, 'tasks', `${task.taskId}.output`));
    expect(session.state().tasks[task.taskId]).toMatchObject({ kind: 'bash', status: 'running' });
    await writeFile(marker, '');
    const notification = await ended;
    expect(notification.task).toMatchObject({ id: task.taskId, status: 'failed', exitCode: 4 });
    expect(notification.summary).toBe('Background command "Wait for the marker" failed with exit code 4');
    expect(session.state().tasks[task.taskId]).toMatchObject({ status: 'failed', exitCode: 4 });
    expect(formatTaskNotification(notification.task, notification.summary)).toContain(
      `<task-id>${task.taskId}</task-id>\n<output-file>${task.outputFile}</output-file>\n<status>failed</status>`,
    );
  });

  it('TaskOutput reads only what is new, then blocks until the task is done', async () => {
    const tool = createTaskOutputTool();
    const m1 = path.join(session.root, 'm1');
    const m2 = path.join(session.root, 'm2');
    const task = await start(
      `echo one; while [ ! -f ${m1} ]; do sleep 0.02; done; echo two >&2; while [ ! -f ${m2} ]; do sleep 0.02; done; echo three`,
    );
    await waitForText(task.outputFile, 'one\n');
    const first = await runTool<TaskOutputData>(
      tool,
      { task_id: task.taskId, block: false },
      session.context,
    );
    expect(first.ok && first.data).toMatchObject({
      retrieval_status: 'not_ready',
      task: { status: 'running', output: 'one', task_type: 'local_bash' },
    });
    await writeFile(m1, '');
    await waitForText(task.outputFile, 'two\n');
    // The legacy name's field (bash_id) is accepted too.
    const second = await runTool<TaskOutputData>(
      tool,
      { bash_id: task.taskId, block: false },
      session.context,
    );
    expect(second.ok && second.data.task.output).toBe('two');
    await writeFile(m2, '');
    const third = await runTool<TaskOutputData>(
      tool,
      { task_id: task.taskId, timeout: 60_000 },
      session.context,
    );
    expect(third.ok && third.data).toMatchObject({
      retrieval_status: 'success',
      task: { status: 'completed', output: 'three', exitCode: 0 },
    });
    expect(third.ok && tool.mapToolResultToContent(third.data)).toBe(
      `<retrieval_status>success</retrieval_status>\n\n<task_id>${task.taskId}</task_id>\n\n<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<output>\nthree\n</output>`,
    );
    const again = await runTool<TaskOutputData>(tool, { task_id: task.taskId }, session.context);
    expect(again.ok && again.data.task.output).toBe('');
  });

  it('TaskOutput with block reports timeout while the task keeps running', async () => {
    const tool = createTaskOutputTool();
    const task = await start('sleep 300');
    const result = await runTool<TaskOutputData>(
      tool,
      { task_id: task.taskId, timeout: 50 },
      session.context,
    );
    expect(result.ok && result.data.retrieval_status).toBe('timeout');
  });

  it('TaskOutput filter returns matching lines only', async () => {
    const tool = createTaskOutputTool();
    const task = await start('printf "keep 1\\ndrop\\nkeep 2\\n"');
    await session.services.tasks.waitForEnd(task.taskId, 60_000);
    const result = await runTool<TaskOutputData>(
      tool,
      { task_id: task.taskId, filter: '^keep' },
      session.context,
    );
    expect(result.ok && result.data.task.output).toBe('keep 1\nkeep 2');
  });

  it('TaskOutput filter runs in linear time: (a+)+$ over a 100,000-character line completes with the right lines', async () => {
    const tool = createTaskOutputTool();
    const task = await start(`printf 'a%.0s' $(seq 100000); printf '!\\naaaa\\n'`);
    await session.services.tasks.waitForEnd(task.taskId, 60_000);
    const result = await runTool<TaskOutputData>(
      tool,
      { task_id: task.taskId, filter: '(a+)+$' },
      session.context,
    );
    expect(result.ok && result.data.task.output).toBe('aaaa');
  });

  it('TaskOutput refuses a filter the linear-time engine cannot run, naming the field', async () => {
    const tool = createTaskOutputTool();
    const task = await start('echo x');
    const v = await tool.validateInput({ task_id: task.taskId, filter: '(x)\\1' } as never, session.context);
    expect(v).toMatchObject({ ok: false, field: 'filter', message: expect.stringMatching(/backreferences/) });
  });

  it('TaskStop stops the process group (children included), under either field name', async () => {
    const stop = createTaskStopTool();
    const pidFile = path.join(session.root, 'child.pid');
    const task = await start(`sleep 300 & echo $! > ${pidFile}; wait`);
    await waitForText(pidFile, '\n');
    const childPid = Number((await readFile(pidFile, 'utf8')).trim());
    const ended = session.nextNotification();
    const result = await runTool<TaskStopData>(stop, { shell_id: task.taskId }, session.context);
    expect(result.ok && result.data).toEqual({
      message: `Successfully stopped task: ${task.taskId} (sleep 300 & echo $! > ${pidFile}; wait)`,
      task_id: task.taskId,
      task_type: 'local_bash',
      command: `sleep 300 & echo $! > ${pidFile}; wait`,
    });
    expect((await ended).task.status).toBe('killed');
    expect(isProcessAlive(childPid)).toBe(false);
    const again = await runTool(stop, { task_id: task.taskId }, session.context);
    expect(!again.ok && again.error).toMatch(/is not running \(status: killed/);
  });

  it('stops a task at its run-time limit and says so in the notification', async () => {
    const ended = session.nextNotification();
    await start('sleep 300', { timeoutMs: 100 });
    const n = await ended;
    expect(n.task.status).toBe('killed');
    expect(n.summary).toMatch(/timed out after 0s and was stopped$/);
  });

  it.each([
    ['TaskOutput', createTaskOutputTool],
    ['TaskStop', createTaskStopTool],
  ])('%s: an unknown id is an error that lists the running tasks', async (_name, make) => {
    const running = await start('sleep 300');
    const result = await runTool(make(), { task_id: 'bnope00' }, session.context);
    expect(!result.ok && result.error).toBe(
      `No task found with ID: bnope00. Running background tasks: ${running.taskId} (test task).`,
    );
  });

  it('requires task_id (or its legacy alias) in the schema', () => {
    const tool = createTaskOutputTool();
    expect(tool.inputSchema.safeParse({}).success).toBe(false);
    expect(tool.inputSchema.safeParse({ bash_id: 'b123456' }).success).toBe(true);
    expect(tool.aliases).toEqual(['BashOutput']);
    expect(createTaskStopTool().aliases).toContain('KillShell');
  });
});

describe('tasks owned elsewhere (status kept in AppState only)', () => {
  it('TaskOutput waits on AppState for a task another tool registered, and reads its file', async () => {
    const file = path.join(session.sessionDir, 'agent.output');
    await import('node:fs/promises').then((fs) => fs.mkdir(session.sessionDir, { recursive: true }));
    await writeFile(file, 'agent says hi\n');
    const info = {
      id: 'a123456',
      kind: 'agent' as const,
      description: 'Background agent',
      status: 'running' as const,
      outputFile: file,
      startedAtMs: Date.now(),
    };
    session.context.setAppStateForTasks((prev) => ({ ...prev, tasks: { ...prev.tasks, [info.id]: info } }));
    const tool = createTaskOutputTool();
    // Counts the call's reads of the app state: the permission step reads it once, TaskOutput twice
    // (the task exists, it is running), then once per poll; past that the call is waiting.
    let reads = 0;
    const spied = {
      ...session.context,
      getAppState: () => {
        reads++;
        return session.context.getAppState();
      },
    };
    const waiting = runTool<TaskOutputData>(tool, { task_id: info.id, timeout: 60_000 }, spied);
    while (reads < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    session.context.setAppStateForTasks((prev) => ({
      ...prev,
      tasks: { ...prev.tasks, [info.id]: { ...info, status: 'completed', exitCode: 0 } },
    }));
    const result = await waiting;
    expect(result.ok && result.data).toMatchObject({
      retrieval_status: 'success',
      task: { task_type: 'local_agent', status: 'completed', output: 'agent says hi' },
    });
  });
});
