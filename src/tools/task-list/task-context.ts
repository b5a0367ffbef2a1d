/**
 * What the task-list tools share: where the session's list lives and how its hooks are fired.
 */
import path from 'node:path';
import type { ToolHookEvent, ToolUseContext } from '../../core/index.js';
import type { TaskRecord } from './task-store.js';

/** The directory of the session's task list (see task-store.ts). */
export function taskListDir(context: ToolUseContext): string {
  const stateDir = context.services.sessionStateDir;
  return stateDir ? path.join(stateDir, 'tasks') : path.join(context.getAppState().sessionDir, 'tasks');
}

/**
 * Fires `event` for `task` through the session's hooks. Returns the block reason when a hook
 * blocked (exit 2 or `decision: "block"`), else undefined. No hook runner → nothing to fire.
 */
export async function fireTaskHook(
  event: ToolHookEvent,
  task: TaskRecord,
  context: ToolUseContext,
): Promise<string | undefined> {
  const hooks = context.services.hooks;
  if (!hooks) return undefined;
  const outcome = await hooks.run(
    event,
    { task_id: task.id, task_subject: task.subject, task_description: task.description },
    {
      signal: context.abortController.signal,
      ...(context.toolUseId ? { toolUseId: context.toolUseId } : {}),
      ...(context.agentId ? { agentId: context.agentId } : {}),
    },
  );
  return outcome.blocked?.reason;
}
