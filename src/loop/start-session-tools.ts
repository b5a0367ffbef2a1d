/**
 * Runs each tool's `startSession` (core/tool.ts) once when a main session starts, after the
 * SessionStart hooks and before the first prompt: what a tool keeps for the whole session (the
 * Cron tools' durable jobs) starts here, with the session's tool context. Tools run one after the
 * other in pool order; one that throws becomes a warning notice and the others still start.
 */
import { errorMessage } from '../core/errors.js';
import type { AnyTool, ToolUseContext } from '../core/index.js';

/** Starts the tools; resolves with a warning text per tool that failed. */
export async function startSessionTools(
  tools: readonly AnyTool[],
  context: ToolUseContext,
): Promise<string[]> {
  const problems: string[] = [];
  for (const tool of tools) {
    if (!tool.startSession) continue;
    try {
      await tool.startSession(context);
    } catch (error) {
      problems.push(`${tool.name} could not start its session state: ${errorMessage(error)}`);
    }
  }
  return problems;
}
