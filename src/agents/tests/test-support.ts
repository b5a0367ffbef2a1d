/**
 * Helpers for the agents tests: tool lists with the Agent tool, the parent's own tool results.
 */
import type { AnyTool } from '../../core/index.js';
import type { UserEvent } from '../../loop/types.js';
import { realTools } from '../../testing/loop-fixtures.js';
import { type AgentToolOptions, createAgentTool } from '../agent-tool.js';

export async function toolsWithAgent(options: AgentToolOptions = {}): Promise<AnyTool[]> {
  return [createAgentTool(options), ...(await realTools())];
}

/** The parent session's own tool_result events (not forwarded child events). */
export function parentToolResults(run: { of(type: 'user'): UserEvent[] }): UserEvent[] {
  return run
    .of('user')
    .filter(
      (e) =>
        !e.agent_id &&
        Array.isArray(e.message.content) &&
        (e.message.content[0] as any)?.type === 'tool_result',
    );
}

export function parentToolResult(run: { of(type: 'user'): UserEvent[] }): UserEvent | undefined {
  return parentToolResults(run)[0];
}

/** The text of a tool_result event's block. */
export function resultText(e: UserEvent | undefined): string {
  return JSON.stringify((e?.message.content as any[])?.[0]?.content ?? '');
}

export const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name);
