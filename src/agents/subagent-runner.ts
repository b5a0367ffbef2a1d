/**
 * `createSubagentRunner`: the `SessionServices.runSubagent` seam, so tools below the agents room
 * (Skill with `context: fork`, …) can run a sub-agent to its end without importing it. Same rules
 * as a foreground Agent call: tools filtered for the type, permissions narrowed to the session's,
 * asks to the session's host, a sidechain transcript; a `fork` continues from the calling tool's
 * conversation (the assistant message that made the call, one placeholder per result).
 */
import { ToolExecutionError, type SubagentRunner } from '../core/index.js';
import { loopHandleOf } from '../loop/subagent-host.js';
import { type AgentDefinition, BUILT_IN_AGENTS, DEFAULT_AGENT_TYPE, FORK_AGENT_TYPE } from './definitions.js';
import { forkDirectiveText, waitForForkingMessage } from './fork.js';
import type { AgentHost } from './agent-scope.js';
import { runAgent } from './run-agent.js';
import { newAgentId } from './sidechain.js';

export function createSubagentRunner(
  options: { agents?: readonly AgentDefinition[]; host?: AgentHost } = {},
): SubagentRunner {
  const agents = options.agents ?? BUILT_IN_AGENTS;
  return async (request, context) => {
    const parent = loopHandleOf(context);
    if (!parent) throw new ToolExecutionError('sub-agents run only inside a Gantry session (query())');
    const type = request.agentType ?? DEFAULT_AGENT_TYPE;
    const found = agents.find((a) => a.agentType === type);
    // A caller may narrow the type's tools (a skill's allowed-tools / disallowed-tools); never widen.
    const definition: AgentDefinition | undefined = found && {
      ...found,
      ...(request.tools?.length
        ? { tools: found.tools ? request.tools.filter((t) => found.tools?.includes(t)) : request.tools }
        : {}),
      ...(request.disallowedTools?.length
        ? { disallowedTools: [...(found.disallowedTools ?? []), ...request.disallowedTools] }
        : {}),
    };
    if (!definition)
      throw new ToolExecutionError(
        `Unknown agent type "${type}". Available: ${agents.map((a) => a.agentType).join(', ')}.`,
      );
    const isFork = type === FORK_AGENT_TYPE;
    const toolUseId = context.toolUseId ?? '';
    const signal = context.abortController.signal;
    const forkMessages = isFork ? await waitForForkingMessage(parent.messages, toolUseId, signal) : undefined;
    if (isFork && !forkMessages)
      throw new ToolExecutionError('the calling message never reached the conversation');
    const run = runAgent({
      definition,
      prompt: isFork ? forkDirectiveText(request.prompt) : request.prompt,
      description: request.description,
      parent,
      agentId: newAgentId(),
      toolUseId,
      isAsync: false,
      signal,
      ...(request.model ? { model: request.model } : {}),
      ...(forkMessages ? { forkMessages } : {}),
      ...(context.agentId ? { parentAgentId: context.agentId } : {}),
      ...(options.host ? { host: options.host } : {}),
    });
    for (;;) {
      const step = await run.next();
      if (!step.done) continue;
      const o = step.value;
      return {
        agentId: o.agentId,
        agentType: o.agentType,
        status: o.status,
        text: o.text,
        totalTokens: o.totalTokens,
        toolUseCount: o.toolUseCount,
      };
    }
  };
}
