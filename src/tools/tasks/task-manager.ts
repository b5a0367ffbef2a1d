/**
 * Pure helpers of the background task tools: Claude Code's task type names, the summary line of a
 * finished task, and the `<task-notification>` text. The registry of running tasks itself is a
 * session service (`context.services.tasks`).
 */
import type { BackgroundTaskInfo } from '../../core/index.js';

/** The task type names TaskOutput and TaskStop report (Claude Code's; `local_monitor` is Gantry's). */
export type TaskTypeName = 'local_bash' | 'local_agent' | 'local_monitor';

/** The task type name of a task kind. */
export function taskTypeName(kind: BackgroundTaskInfo['kind']): TaskTypeName {
  return kind === 'bash' ? 'local_bash' : kind === 'monitor' ? 'local_monitor' : 'local_agent';
}

/** Summary line of a finished task, as in Claude Code's notifications. */
export function taskEndSummary(task: BackgroundTaskInfo, timedOutAfterMs?: number): string {
  const what =
    task.kind === 'bash' ? 'Background command' : task.kind === 'monitor' ? 'Monitor' : 'Background agent';
  const name = `${what} "${task.description}"`;
  if (timedOutAfterMs !== undefined)
    return `${name} timed out after ${Math.round(timedOutAfterMs / 1000)}s and was stopped`;
  if (task.status === 'killed') return `${name} was stopped`;
  if (task.status === 'completed') return `${name} completed (exit code ${task.exitCode ?? 0})`;
  return `${name} failed with exit code ${task.exitCode ?? 'unknown'}`;
}

/**
 * The `<task-notification>` text a host appends to the conversation when a task ends (the shape
 * seen in Claude Code transcripts).
 */
export function formatTaskNotification(task: BackgroundTaskInfo, summary: string): string {
  return [
    '<task-notification>',
    `<task-id>${task.id}</task-id>`,
    `<output-file>${task.outputFile}</output-file>`,
    `<status>${task.status}</status>`,
    `<summary>${summary}</summary>`,
    '</task-notification>',
    `Read the output file to retrieve the result: ${task.outputFile}`,
  ].join('\n');
}
