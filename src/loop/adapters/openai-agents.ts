/**
 * Gantry's tools for the OpenAI Agents SDK (`@openai/agents` 0.14; docs/adapters.md): one function
 * `tool()` per Gantry tool, with the input's JSON Schema (non-strict), `needsApproval` answered by
 * Gantry's permission engine and `execute` running the call through Gantry's runtime.
 *
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { createGantryToolset } from 'gantry/agent';
 * import { openAIAgentsTools } from 'gantry/openai-agents';
 * const toolset = await createGantryToolset({ cwd: process.cwd() });
 * const agent = new Agent({ name: 'coder', tools: openAIAgentsTools(toolset) });
 * let result = await run(agent, 'Run the tests');
 * while (result.interruptions.length) {
 *   for (const i of result.interruptions) result.state.approve(i); // or reject(i)
 *   result = await run(agent, result.state);
 * }
 * ```
 *
 * - engine `allow` → no approval, the call runs;
 * - engine `ask` → `needsApproval` is true: the run stops with an interruption; an approved call
 *   runs (the SDK's run context records the approval, and the runtime's own ask is answered yes
 *   for that call), a rejected one never reaches `execute` (the SDK tells the model it was
 *   rejected);
 * - engine `deny` → no approval is asked; `execute` runs the call through the engine, which
 *   refuses it, and the model gets the refusal as the tool's output.
 *
 * A call the engine asks about that the run context has not approved is refused (fail closed).
 * `@openai/agents` is a peer dependency (pinned, optional: only this entry needs it).
 */
import { randomUUID } from 'node:crypto';
import { type FunctionTool, tool } from '@openai/agents';
import type { GantryToolset } from './toolset.js';

type JsonParameters = Extract<Parameters<typeof tool>[0], { strict: false }>['parameters'];

/** The tool set's tools as Agents SDK function tools (see the module comment). */
export function openAIAgentsTools(toolset: GantryToolset): FunctionTool<unknown, JsonParameters, string>[] {
  return toolset.tools.map(
    (t) =>
      tool({
        name: t.name,
        description: t.description,
        parameters: t.inputSchema as JsonParameters,
        strict: false,
        needsApproval: async (_context, input, callId) =>
          (await toolset.decide(t.name, input, callId ?? randomUUID())).behavior === 'ask',
        execute: async (input, context, details) => {
          const callId = details?.toolCall?.callId ?? randomUUID();
          const approved = context?.isToolApproved({ toolName: t.name, callId }) === true;
          const r = await toolset.run(t.name, input, {
            callId,
            approved,
            ...(details?.signal ? { signal: details.signal } : {}),
          });
          return r.text;
        },
      }) as FunctionTool<unknown, JsonParameters, string>,
  );
}
