/**
 * The Agent tool (alias `Task`): starts a sub-agent. Input as Claude Code's (`description`,
 * `prompt`, `subagent_type`, `model`, `run_in_background`, `isolation`, `name`).
 *
 * - Foreground: runs the child to its end, forwarding its events as progress (they reach the
 *   stream with `parent_tool_use_id` = this call and `agent_id`), then returns its report, agent id
 *   and usage. The parent's abort aborts the child.
 * - Background (`run_in_background`, a background type, every fork): registers a task (id = the
 *   agent id) with the session's task registry and returns at once with the task id and output
 *   file; the child runs on. When it ends, its report is written to the output file and a
 *   `<task-notification>` is delivered to the parent (in its running turn, or as a new turn when it
 *   is idle); the session waits for it before it ends (bounded). TaskOutput reads it, TaskStop
 *   stops it.
 * - Concurrency-safe; at most `maxConcurrent` sub-agents run per session (default 20); another
 *   one is refused with a clear error, never queued behind its own ancestors.
 * - It has no effect of its own: the permission engine allows it (tools/agent/describe.ts), and
 *   each of the child's calls is decided on its own (narrow.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeWorldOf } from '../core/call-describer.js';
import { buildTool, ToolExecutionError, ToolInputError, type ToolUseContext } from '../core/index.js';
import { gantryTraits } from '../core/tool-traits.js';
import { type LoopHandle, loopHandleOf } from '../loop/subagent-host.js';
import type { ForwardedEventProgress, QueryEvent } from '../loop/types.js';
import type { BackgroundTaskManager } from '../runtime/index.js';
import { agentDescriber } from '../tools/agent/describe.js';
import type { AgentHost } from './agent-scope.js';
import { type AgentDefinition, BUILT_IN_AGENTS, DEFAULT_AGENT_TYPE, FORK_AGENT_TYPE } from './definitions.js';
import { forkDirectiveText, waitForForkingMessage } from './fork.js';
import { endTrackedRun, trackAgent } from './messaging/agent-directory.js';
import type { TeammateLauncher } from './teams/team-tools.js';
import {
  type AgentToolData,
  renderForegroundResult,
  renderLaunchNotice,
  taskNotificationText,
} from './agent-tool-render.js';
import { drainBackgroundRun } from './background-run.js';
import { type AgentOutcome, runAgent } from './run-agent.js';
import { newAgentId } from './sidechain.js';
import { createAgentWorktree, finishAgentWorktree, type AgentWorktree } from './worktree.js';

export const AgentInput = z.strictObject({
  description: z.string().describe('A short (3-5 word) description of the task'),
  prompt: z.string().describe('The task for the agent to perform'),
  subagent_type: z.string().describe('The type of specialized agent to use for this task').optional(),
  model: z
    .enum(['sonnet', 'opus', 'haiku', 'inherit'])
    .describe('Optional model override for this agent; inherit (default) uses the parent model')
    .optional(),
  run_in_background: z
    .boolean()
    .describe('Run the agent in the background; you will be notified when it finishes')
    .optional(),
  isolation: z
    .enum(['worktree'])
    .describe('Run the agent in a fresh git worktree on its own branch')
    .optional(),
  name: z.string().describe('A name for the agent (used for its worktree and branch)').optional(),
});
export type AgentInput = z.infer<typeof AgentInput>;

export interface AgentToolOptions {
  /** Agent types by name; default the built-ins (custom agents: `loadAgentDefinitions`). */
  agents?: readonly AgentDefinition[];
  /** Sub-agents running at once per session (default 20). */
  maxConcurrent?: number;
  /** The hosting session's MCP servers, environment and trust, for definitions' own servers and hooks. */
  host?: AgentHost;
  /** Agent teams on (feature-tools.ts): a `name` while the session leads a team starts a teammate. */
  teammates?: TeammateLauncher;
}

/** Running sub-agents per session (keyed by the shared task registry). */
const running = new WeakMap<BackgroundTaskManager, { count: number }>();

function describeTypes(agents: readonly AgentDefinition[]): string {
  return agents.map((a) => `- ${a.agentType}: ${a.whenToUse}`).join('\n');
}

const BASE_DESCRIPTION = [
  'Start a sub-agent: an agent with its own conversation and tools that carries out a task and',
  'reports back. Use it for work that would take many steps or read many files, and for',
  'independent tasks you can run in parallel (several Agent calls in one message run at once).',
  '',
  '- The agent does not see your conversation: give it everything it needs in `prompt`.',
  '- Its report comes back to you, not to the person: summarise it for them.',
  '- `run_in_background: true` returns at once; you are notified when the agent finishes (do not',
  '  poll). `isolation: "worktree"` gives it its own git worktree and branch.',
  '',
  'Agent types (`subagent_type`):',
].join('\n');

function forwarded(event: QueryEvent): ForwardedEventProgress {
  return { kind: 'query-event', event };
}

function dataOf(input: AgentInput, outcome: AgentOutcome, oneShot: boolean): AgentToolData {
  return {
    status: outcome.status,
    prompt: input.prompt,
    agentId: outcome.agentId,
    agentType: outcome.agentType,
    content: [{ type: 'text', text: outcome.text }],
    toolsUsed: outcome.toolsUsed,
    totalDurationMs: outcome.durationMs,
    totalTokens: outcome.totalTokens,
    totalToolUseCount: outcome.toolUseCount,
    ...(outcome.result ? { usage: outcome.result.usage } : {}),
    resolvedModel: outcome.model,
    permissionMode: outcome.permissionMode,
    ...(outcome.denials.length ? { permission_denials: outcome.denials } : {}),
    ...(oneShot ? { oneShot: true } : {}),
  };
}

/** Builds the Agent tool for a set of agent types. */
export function createAgentTool(options: AgentToolOptions = {}) {
  const agents = options.agents ?? BUILT_IN_AGENTS;
  const maxConcurrent = options.maxConcurrent ?? 20;
  const find = (type: string) => agents.find((a) => a.agentType === type);

  return buildTool({
    name: 'Agent',
    aliases: gantryTraits('Agent').aliases,
    description: `${BASE_DESCRIPTION}\n${describeTypes(agents)}`,
    inputSchema: AgentInput,
    maxResultSizeChars: 100_000,
    isConcurrencySafe: () => true,
    isReadOnly: () => false,
    userFacingName: () => 'Agent',
    toAutoClassifierInput: (input: AgentInput) => agentDescriber.toAutoClassifierInput(input),
    async describeCall(input: AgentInput, context: ToolUseContext) {
      return agentDescriber.describe(input, describeWorldOf(context));
    },

    async *call(input: AgentInput, context: ToolUseContext) {
      const parent = loopHandleOf(context);
      if (!parent)
        throw new ToolExecutionError('The Agent tool runs only inside a Gantry session (query()).');
      const type = input.subagent_type ?? DEFAULT_AGENT_TYPE;
      const definition = find(type);
      if (!definition)
        throw new ToolInputError(
          `Unknown agent type "${type}". Available: ${agents.map((a) => a.agentType).join(', ')}.`,
          'subagent_type',
        );
      if (input.name && options.teammates) {
        const teammate = await options.teammates(
          {
            name: input.name,
            prompt: input.prompt,
            description: input.description,
            agentType: definition.agentType,
            ...(definition.permissionMode ? { requestedMode: definition.permissionMode } : {}),
          },
          context,
        );
        if (teammate) {
          const data: AgentToolData = {
            status: 'teammate_spawned',
            prompt: input.prompt,
            agentId: `${teammate.name}@${teammate.team}`,
            agentType: definition.agentType,
            content: [],
            teammate,
          };
          return { data };
        }
      }
      const toolUseId = context.toolUseId ?? '';
      const isFork = definition.agentType === FORK_AGENT_TYPE;
      const isAsync = isFork || input.run_in_background === true || definition.background === true;
      const slot = running.get(parent.tasks) ?? { count: 0 };
      running.set(parent.tasks, slot);
      if (slot.count >= maxConcurrent)
        throw new ToolExecutionError(
          `${slot.count} sub-agents are already running in this session (the limit is ${maxConcurrent}); wait for one to finish.`,
        );

      const agentId = newAgentId();
      let worktree: AgentWorktree | undefined;
      const worktreeHooks = { hooks: context.services.hooks, signal: context.abortController.signal };
      if (input.isolation === 'worktree' || definition.isolation === 'worktree') {
        worktree = await createAgentWorktree(parent.cwd(), input.name ?? agentId, worktreeHooks);
      }
      const common = {
        definition,
        prompt: isFork ? forkDirectiveText(input.prompt) : input.prompt,
        description: input.description,
        parent,
        agentId,
        toolUseId,
        isAsync,
        ...(input.model ? { model: input.model } : {}),
        ...(worktree
          ? { cwd: worktree.path, metaExtra: { worktree: { path: worktree.path, branch: worktree.branch } } }
          : {}),
        ...(context.agentId ? { parentAgentId: context.agentId } : {}),
        ...(options.host ? { host: options.host } : {}),
      };
      const oneShot = definition.oneShot === true;
      // Addressable by SendMessage (id, or `name`) while it runs and after it ended.
      const record = trackAgent(parent, {
        agentId,
        definition,
        description: input.description,
        ...(input.name ? { name: input.name } : {}),
        ...(context.agentId ? { parentAgentId: context.agentId } : {}),
        ...(worktree ? { cwd: worktree.path } : {}),
      });
      let recordStatus: AgentOutcome['status'] = 'failed';
      const finishWorktree = async (data: AgentToolData): Promise<void> => {
        if (!worktree) return;
        const end = await finishAgentWorktree(worktree, worktreeHooks);
        data.worktree = {
          path: worktree.path,
          branch: worktree.branch,
          kept: end.kept,
          ...(worktree.note ? { note: worktree.note } : {}),
        };
      };
      const labels = { session_id: parent.sessionId };

      if (!isAsync) {
        slot.count++;
        try {
          yield forwarded({
            type: 'system',
            subtype: 'task_started',
            task_id: agentId,
            tool_use_id: toolUseId,
            description: input.description,
            subagent_type: definition.agentType,
            is_backgrounded: false,
            task_type: 'local_agent',
            prompt: input.prompt,
            ...labels,
            uuid: crypto.randomUUID(),
          });
          // Registered with the session's tasks too, so the session does not end before the child
          // has closed its loop and recorded how it ended (parent aborted or killed).
          const fg = new AbortController();
          const parentSignal = context.abortController.signal;
          const onAbort = (): void => fg.abort(parentSignal.reason);
          if (parentSignal.aborted) fg.abort(parentSignal.reason);
          else parentSignal.addEventListener('abort', onAbort, { once: true });
          let endFg!: () => void;
          const fgEnded = new Promise<void>((resolve) => {
            endFg = resolve;
          });
          parent.tasks.register(agentId, {
            stop: async (by) => {
              record.stoppedBy ??= by ?? 'user';
              fg.abort(new Error('stopped'));
              await fgEnded;
            },
            ended: fgEnded,
            command: `agent ${definition.agentType}: ${input.description}`,
          });
          try {
            const run = runAgent({
              ...common,
              signal: fg.signal,
              ...(record.channel ? { channel: record.channel } : {}),
            });
            let outcome: AgentOutcome;
            try {
              for (;;) {
                const step = await run.next();
                if (step.done) {
                  outcome = step.value;
                  break;
                }
                yield forwarded(step.value);
              }
            } finally {
              await run.return(undefined as never).catch(() => undefined);
            }
            recordStatus = outcome.status;
            const data = dataOf(input, outcome, oneShot);
            await finishWorktree(data);
            yield forwarded({
              type: 'system',
              subtype: 'task_notification',
              task_id: agentId,
              tool_use_id: toolUseId,
              status: outcome.status,
              summary: `Agent "${input.description}" ${outcome.status === 'completed' ? 'finished' : outcome.status}`,
              usage: {
                total_tokens: outcome.totalTokens,
                tool_uses: outcome.toolUseCount,
                duration_ms: outcome.durationMs,
              },
              ...labels,
              uuid: crypto.randomUUID(),
            });
            return { data };
          } finally {
            parentSignal.removeEventListener('abort', onAbort);
            endTrackedRun(record, fg.signal.aborted ? 'killed' : recordStatus, context);
            endFg();
          }
        } finally {
          slot.count--;
        }
      }

      // Background: register a task and return at once.
      const sessionDir = context.getAppState().sessionDir;
      const outputFile = path.join(sessionDir, 'tasks', `${agentId}.output`);
      mkdirSync(path.dirname(outputFile), { recursive: true });
      writeFileSync(outputFile, '');
      const stop = new AbortController();
      let resolveEnded!: () => void;
      const ended = new Promise<void>((resolve) => {
        resolveEnded = resolve;
      });
      const startedAtMs = Date.now();
      context.setAppStateForTasks((prev) => ({
        ...prev,
        tasks: {
          ...prev.tasks,
          [agentId]: {
            id: agentId,
            kind: 'agent',
            description: input.description,
            status: 'running',
            outputFile,
            startedAtMs,
          },
        },
      }));
      slot.count++;
      const setStatus = (status: 'completed' | 'failed' | 'killed'): void => {
        context.setAppStateForTasks((prev) => {
          const task = prev.tasks[agentId];
          if (!task) return prev;
          return { ...prev, tasks: { ...prev.tasks, [agentId]: { ...task, status, endedAtMs: Date.now() } } };
        });
      };
      const background = async (): Promise<void> => {
        const { outcome, status, text } = await drainBackgroundRun(
          async () => {
            const forkMessages = isFork
              ? await waitForForkingMessage(parent.messages, toolUseId, stop.signal)
              : undefined;
            if (isFork && !forkMessages)
              throw new Error('the forking message never reached the conversation');
            return runAgent({
              ...common,
              signal: stop.signal,
              ...(forkMessages ? { forkMessages } : {}),
              ...(record.channel ? { channel: record.channel } : {}),
            });
          },
          stop.signal,
          outputFile,
        );
        const data: AgentToolData = outcome
          ? dataOf(input, outcome, oneShot)
          : {
              status,
              prompt: input.prompt,
              agentId,
              agentType: definition.agentType,
              content: [{ type: 'text', text }],
            };
        try {
          await finishWorktree(data);
        } catch {
          // The worktree stays; its path is in the meta file.
        }
        setStatus(status);
        slot.count--;
        endTrackedRun(record, status, context);
        parent.deliver(
          taskNotificationText({
            agentId,
            toolUseId,
            outputFile,
            status,
            description: input.description,
            text: data.worktree
              ? `${text}\n${data.worktree.kept ? `worktree kept: ${data.worktree.path} (branch ${data.worktree.branch})` : 'worktree removed: no changes'}`
              : text,
            totalTokens: outcome?.totalTokens ?? 0,
            toolUses: outcome?.toolUseCount ?? 0,
            durationMs: Date.now() - startedAtMs,
          }),
        );
        resolveEnded();
      };
      parent.tasks.register(agentId, {
        stop: async (by) => {
          record.stoppedBy ??= by ?? 'user';
          stop.abort(new Error('stopped'));
          await ended;
        },
        ended,
        command: `agent ${definition.agentType}: ${input.description}`,
      });
      parent.hold(ended);
      void background();
      yield forwarded({
        type: 'system',
        subtype: 'task_started',
        task_id: agentId,
        tool_use_id: toolUseId,
        description: input.description,
        subagent_type: definition.agentType,
        is_backgrounded: true,
        task_type: 'local_agent',
        prompt: input.prompt,
        ...labels,
        uuid: crypto.randomUUID(),
      });
      const data: AgentToolData = {
        status: 'async_launched',
        prompt: input.prompt,
        agentId,
        agentType: definition.agentType,
        content: [],
        outputFile,
      };
      return { data };
    },

    mapToolResultToContent: (data: AgentToolData) => [
      {
        type: 'text' as const,
        text:
          data.status === 'teammate_spawned' && data.teammate
            ? `Started teammate "${data.teammate.name}" of team "${data.teammate.team}" as its own process${data.teammate.tmuxPane ? ` in tmux pane ${data.teammate.tmuxPane}` : ''} (permission mode ${data.teammate.permissionMode}). Send it messages with SendMessage (to: "${data.teammate.name}"); its replies reach you as agent messages.`
            : data.status === 'async_launched'
              ? renderLaunchNotice(data)
              : renderForegroundResult(data),
      },
    ],
  });
}

/** The Agent tool with the built-in agent types. */
export type AgentTool = ReturnType<typeof createAgentTool>;
export { type AgentToolData, renderForegroundResult, renderLaunchNotice, taskNotificationText };
export type { LoopHandle };
