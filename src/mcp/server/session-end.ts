/**
 * The end of one MCP session's tool runtime: its background tasks are stopped (their process groups
 * SIGTERMed, then SIGKILLed after the grace period), so nothing a session started outlives it.
 * Used when a stdio session ends, when an HTTP session is deleted or expires, and at shutdown.
 */
import type { ToolRuntime } from '../../runtime/index.js';
import { backgroundTasks } from '../../tools/tasks/task-manager.js';

/** Stops the session's running background tasks. Never rejects. */
export async function endRuntimeSession(runtime: Pick<ToolRuntime, 'getAppState'>): Promise<void> {
  const ids = Object.values(runtime.getAppState().tasks)
    .filter((t) => t.status === 'running')
    .map((t) => t.id);
  await Promise.all(ids.map((id) => backgroundTasks.stop(id).catch(() => false)));
}
