/**
 * The task-list tools through the runtime: ids, persistence in the session's state directory,
 * dependencies on both ends with cycle refusal, metadata merge with null deletes, deletion, and the
 * TaskCreated / TaskCompleted hooks with rollback when a hook blocks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolHookEvent, ToolHookOutcome, ToolHookRunner } from '../../core/index.js';
import { createToolRuntime } from '../../runtime/create-tool-runtime.js';
import { allowAllDecider } from '../../runtime/deciders.js';
import { createSessionServices } from '../../runtime/session-services.js';
import { makeTempDir, toolUse } from '../../testing/runtime-fixtures.js';
import { TaskCreateTool } from './task-create.tool.js';
import { TaskGetTool } from './task-get.tool.js';
import { TaskListTool } from './task-list.tool.js';
import { TaskUpdateTool } from './task-update.tool.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

/** A hook runner that records the events and blocks the ones `block` names. */
function recordingHooks(block: Partial<Record<ToolHookEvent, string>> = {}) {
  const seen: { event: ToolHookEvent; input: Record<string, unknown> }[] = [];
  const hooks: ToolHookRunner = {
    async run(event, input): Promise<ToolHookOutcome> {
      seen.push({ event, input });
      const reason = block[event];
      return reason ? { blocked: { reason }, errors: [] } : { errors: [] };
    },
  };
  return { hooks, seen };
}

function session(hooks?: ToolHookRunner) {
  const stateDir = path.join(temp.dir, 'state');
  const runtime = createToolRuntime({
    tools: [TaskCreateTool, TaskGetTool, TaskUpdateTool, TaskListTool],
    cwd: temp.dir,
    sessionDir: temp.dir,
    decide: allowAllDecider,
    services: createSessionServices({ sessionStateDir: stateDir, ...(hooks ? { hooks } : {}) }),
  });
  let n = 0;
  const call = async (name: string, input: Record<string, unknown>) => {
    const id = `t${++n}`;
    const { results, calls } = await runtime.runToolsToCompletion([toolUse(id, name, input)]);
    return { result: results[0]!, data: calls[0]?.data as any };
  };
  const file = path.join(stateDir, 'tasks', 'tasks.json');
  return { call, file, dispose: () => runtime.services.dispose() };
}

describe('TaskCreate / TaskGet / TaskList', () => {
  it('numbers tasks from 1, persists them, and lists them in order', async () => {
    const s = session();
    const a = await s.call('TaskCreate', { subject: 'Write the parser', description: 'Parse rules' });
    expect(a.data).toEqual({ task: { id: '1', subject: 'Write the parser' } });
    expect(a.result.content).toBe('Task #1 created successfully: Write the parser');
    await s.call('TaskCreate', {
      subject: 'Test it',
      description: 'Table tests',
      metadata: { area: 'rules' },
    });
    const stored = JSON.parse(readFileSync(s.file, 'utf8'));
    expect(stored.nextId).toBe(3);
    expect(stored.tasks.map((t: any) => t.id)).toEqual(['1', '2']);
    const list = await s.call('TaskList', {});
    expect(list.data.tasks).toEqual([
      { id: '1', subject: 'Write the parser', status: 'pending', blockedBy: [] },
      { id: '2', subject: 'Test it', status: 'pending', blockedBy: [] },
    ]);
    const got = await s.call('TaskGet', { taskId: '2' });
    expect(got.data.task).toMatchObject({ id: '2', description: 'Table tests', metadata: { area: 'rules' } });
    expect((await s.call('TaskGet', { taskId: '9' })).data).toEqual({ task: null });
    await s.dispose();
  });
});

describe('TaskUpdate', () => {
  it('keeps dependencies on both ends and lists only unfinished blockers', async () => {
    const s = session();
    for (const subject of ['A', 'B', 'C']) await s.call('TaskCreate', { subject, description: subject });
    const u = await s.call('TaskUpdate', { taskId: '1', addBlocks: ['2'] });
    expect(u.data).toEqual({ success: true, taskId: '1', updatedFields: ['blocks'] });
    await s.call('TaskUpdate', { taskId: '3', addBlockedBy: ['2'] });
    expect((await s.call('TaskGet', { taskId: '2' })).data.task).toMatchObject({
      blocks: ['3'],
      blockedBy: ['1'],
    });
    const done = await s.call('TaskUpdate', { taskId: '1', status: 'completed' });
    expect(done.data.statusChange).toEqual({ from: 'pending', to: 'completed' });
    const list = (await s.call('TaskList', {})).data.tasks;
    expect(list.find((t: any) => t.id === '2').blockedBy).toEqual([]);
    expect(list.find((t: any) => t.id === '3').blockedBy).toEqual(['2']);
    await s.dispose();
  });

  it.each([
    [{ taskId: '1', addBlockedBy: ['3'] }, /cycle/, '3 → 1 would close 1 → 2 → 3'],
    [{ taskId: '3', addBlocks: ['1'] }, /cycle/, 'the same edge written from the other end'],
    [{ taskId: '2', addBlocks: ['2'] }, /cannot block itself/, 'a self-dependency'],
    [{ taskId: '2', addBlocks: ['7'] }, /#7 does not exist/, 'an unknown task'],
    [{ taskId: '7', status: 'completed' }, /#7 not found/, 'updating an unknown task'],
  ])('refuses %j (%s; %s) and saves nothing', async (input, error, _reason) => {
    const s = session();
    for (const subject of ['A', 'B', 'C']) await s.call('TaskCreate', { subject, description: subject });
    await s.call('TaskUpdate', { taskId: '1', addBlocks: ['2'] });
    await s.call('TaskUpdate', { taskId: '2', addBlocks: ['3'] });
    const before = readFileSync(s.file, 'utf8');
    const r = await s.call('TaskUpdate', { ...input, subject: 'renamed' });
    expect(r.data.success).toBe(false);
    expect(r.data.error).toMatch(error);
    expect(r.result.content).toMatch(/was not updated/);
    expect(readFileSync(s.file, 'utf8')).toBe(before);
    await s.dispose();
  });

  it('merges metadata keys and deletes the ones set to null; sets and clears the owner', async () => {
    const s = session();
    await s.call('TaskCreate', { subject: 'A', description: 'a', metadata: { keep: 1, drop: 2 } });
    await s.call('TaskUpdate', { taskId: '1', metadata: { drop: null, add: 'x' }, owner: 'reviewer' });
    expect((await s.call('TaskGet', { taskId: '1' })).data.task).toMatchObject({
      metadata: { keep: 1, add: 'x' },
      owner: 'reviewer',
    });
    await s.call('TaskUpdate', { taskId: '1', owner: '' });
    expect((await s.call('TaskGet', { taskId: '1' })).data.task.owner).toBeUndefined();
    await s.dispose();
  });

  it('deleting a task removes it and every dependency on it; its id is not reused', async () => {
    const s = session();
    for (const subject of ['A', 'B']) await s.call('TaskCreate', { subject, description: subject });
    await s.call('TaskUpdate', { taskId: '1', addBlocks: ['2'] });
    const del = await s.call('TaskUpdate', { taskId: '1', status: 'deleted' });
    expect(del.data.statusChange).toEqual({ from: 'pending', to: 'deleted' });
    expect((await s.call('TaskGet', { taskId: '2' })).data.task.blockedBy).toEqual([]);
    expect((await s.call('TaskCreate', { subject: 'C', description: 'c' })).data.task.id).toBe('3');
    await s.dispose();
  });
});

describe('task hooks', () => {
  it('TaskCreated gets the task fields; a block removes the task again and says why', async () => {
    const { hooks, seen } = recordingHooks({ TaskCreated: 'subjects must name a ticket' });
    const s = session(hooks);
    const r = await s.call('TaskCreate', { subject: 'Untracked work', description: 'd' });
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain('subjects must name a ticket');
    expect(seen).toEqual([
      {
        event: 'TaskCreated',
        input: { task_id: '1', task_subject: 'Untracked work', task_description: 'd' },
      },
    ]);
    expect((await s.call('TaskList', {})).data.tasks).toEqual([]);
    await s.dispose();
  });

  it('TaskCompleted blocking keeps the task open and undoes the rest of that update', async () => {
    const { hooks, seen } = recordingHooks({ TaskCompleted: 'tests are still failing' });
    const s = session(hooks);
    for (const subject of ['A', 'B']) await s.call('TaskCreate', { subject, description: subject });
    const r = await s.call('TaskUpdate', {
      taskId: '1',
      status: 'completed',
      subject: 'A!',
      addBlocks: ['2'],
    });
    expect(r.data).toMatchObject({ success: false, taskId: '1' });
    expect(r.data.error).toContain('tests are still failing');
    const a = (await s.call('TaskGet', { taskId: '1' })).data.task;
    expect(a).toMatchObject({ status: 'pending', subject: 'A', blocks: [] });
    expect((await s.call('TaskGet', { taskId: '2' })).data.task.blockedBy).toEqual([]);
    expect(seen.map((e) => e.event)).toEqual(['TaskCreated', 'TaskCreated', 'TaskCompleted']);
    await s.dispose();
  });

  it('a TaskCompleted hook that does not block lets the completion stand', async () => {
    const { hooks } = recordingHooks();
    const s = session(hooks);
    await s.call('TaskCreate', { subject: 'A', description: 'a' });
    expect((await s.call('TaskUpdate', { taskId: '1', status: 'completed' })).data.success).toBe(true);
    expect((await s.call('TaskGet', { taskId: '1' })).data.task.status).toBe('completed');
    await s.dispose();
  });
});
