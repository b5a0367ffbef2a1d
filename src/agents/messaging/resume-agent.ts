/**
 * Resuming a sub-agent that has ended (completed, failed, or stopped by the model) when
 * SendMessage reaches it: a new background run under the same agent id, continuing the
 * conversation of its sidechain transcript, with the message as its next prompt. Like a
 * background Agent call it is a task of the session (TaskOutput, TaskStop), writes its report to
 * the task's output file and ends with a `<task-notification>` to the loop that first started it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ToolExecutionError, type ToolUseContext } from '../../core/index.js';
import { messagesFromLines, readTranscriptLines, resumeSession } from '../../loop/transcript/reader.js';
import type { ResumedSession } from '../../loop/types.js';
import { taskNotificationText } from '../agent-tool.js';
import { drainBackgroundRun } from '../background-run.js';
import { runAgent } from '../run-agent.js';
import { AgentChannel, type AgentRecord, endTrackedRun } from './agent-directory.js';

/**
 * A sidechain transcript as a session to continue: its lines are the agent's own conversation
 * (marked `isSidechain`, which a main-session reader skips), so they are read as main lines.
 */
export function resumeSidechain(file: string): ResumedSession {
  const session = resumeSession(file);
  const lines = readTranscriptLines(file).lines.map((l) =>
    l.isSidechain === true ? { ...l, isSidechain: false } : l,
  );
  return { ...session, messages: messagesFromLines(lines) };
}

/** Starts the resumed run; returns its output file. Throws when the transcript cannot be read. */
export function resumeAgent(record: AgentRecord, texts: readonly string[], context: ToolUseContext): string {
  const { parent, agentId, definition } = record;
  let resumed: ResumedSession;
  try {
    resumed = resumeSidechain(record.transcriptPath);
  } catch (error) {
    throw new ToolExecutionError(
      `Agent ${agentId} cannot be resumed: its transcript could not be read (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  record.status = 'running';
  record.stoppedBy = undefined;
  record.runs++;
  const channel = new AgentChannel();
  record.channel = channel;

  const outputFile = path.join(context.getAppState().sessionDir, 'tasks', `${agentId}.output`);
  mkdirSync(path.dirname(outputFile), { recursive: true });
  writeFileSync(outputFile, '');
  const startedAtMs = Date.now();
  const setTask = (status: 'running' | 'completed' | 'failed' | 'killed'): void =>
    context.setAppStateForTasks((prev) => ({
      ...prev,
      tasks: {
        ...prev.tasks,
        [agentId]: {
          id: agentId,
          kind: 'agent',
          description: record.description,
          status,
          outputFile,
          startedAtMs,
          ...(status === 'running' ? {} : { endedAtMs: Date.now() }),
        },
      },
    }));
  setTask('running');

  const stop = new AbortController();
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => {
    resolveEnded = resolve;
  });
  parent.tasks.register(agentId, {
    stop: async (by) => {
      record.stoppedBy ??= by ?? 'user';
      stop.abort(new Error('stopped'));
      await ended;
    },
    ended,
    command: `agent ${definition.agentType}: ${record.description} (resumed)`,
  });
  parent.hold(ended);

  const toolUseId = context.toolUseId ?? '';
  void (async () => {
    const { outcome, status, text } = await drainBackgroundRun(
      async () =>
        runAgent({
          definition,
          prompt: texts.join('\n\n'),
          description: record.description,
          parent,
          agentId,
          toolUseId,
          isAsync: true,
          signal: stop.signal,
          resume: resumed,
          channel,
          ...(record.cwd ? { cwd: record.cwd } : {}),
          ...(record.parentAgentId ? { parentAgentId: record.parentAgentId } : {}),
        }),
      stop.signal,
      outputFile,
    );
    setTask(status);
    endTrackedRun(record, status, context);
    try {
      parent.deliver(
        taskNotificationText({
          agentId,
          toolUseId,
          outputFile,
          status,
          description: record.description,
          text,
          totalTokens: outcome?.totalTokens ?? 0,
          toolUses: outcome?.toolUseCount ?? 0,
          durationMs: Date.now() - startedAtMs,
        }),
      );
    } catch {
      // The loop that started it has ended: the report stays in the output file.
    }
    resolveEnded();
  })();
  return outputFile;
}
