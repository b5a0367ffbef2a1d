/**
 * The tool seam of a durable session: each tool of the session wrapped so that one call is one
 * workflow step keyed by its `tool_use_id` (docs/fleet.md, "What is journaled").
 *
 * - A call that completed (result or error) replays its record: `data` and `newMessages`, or the
 *   error's text, rethrown as the same kind (`ToolError` or `Error`) so the runtime renders it the
 *   same way. Its `validateInput` is skipped (see `recorded`); the permission decision is made
 *   again (rules and modes are the session's; an ask replays its recorded answer). Tools' session
 *   state from replayed calls is not rebuilt: after a resume, Edit/Write of a file the session
 *   read before the crash asks the model to Read it again (a clear error, never a blind write).
 * - A read-only call (`tool.isReadOnly(input, context)`: the trait table and the effect model
 *   behind it; an MCP tool's read-only hint) that was cut off is simply run again.
 * - A call with effects first journals a start mark (`tool-start:<id>`, holding the id of the
 *   execution that started it). When a later execution finds that mark but no record, the call was
 *   cut off mid-run: it is not run again, and the model gets the error `interrupted: may have
 *   partly completed …` ({@link INTERRUPTED_TEXT}) as its result.
 * - Every wrapped tool says it is not concurrency-safe, so a session's calls run one at a time in
 *   the model's order and the journal replays in the same order. Progress events of a journaled
 *   call are not forwarded.
 * - `afterEffect` (placement's checkpoint of the working tree) runs inside the step of a completed
 *   call with effects, so the checkpoint and the record commit together.
 */
import type { AnyTool, ToolResult, ToolUseContext } from '../core/index.js';
import { errorMessage, ToolError } from '../core/errors.js';
import type { Message } from '../core/messages.js';
import type { WorkflowContext } from './engine.js';

export const INTERRUPTED_TEXT =
  'interrupted: may have partly completed. The worker running this call stopped before the call ' +
  'finished; it was not run again. Check its effects before repeating it.';

interface RecordedCall {
  data?: unknown;
  newMessages?: Message[];
  error?: { message: string; toolError: boolean };
  interrupted?: true;
}

export interface DurableToolsOptions {
  /** Id of this execution of the workflow (new at each start or recovery). */
  executionId: string;
  /**
   * Step names already recorded when this execution started (`WorkflowContext.recordedSteps`). A
   * call with a record skips `validateInput`: the checks saw the world before the call, and the
   * call's own effects (a file Write created) would now fail them, turning a replay into a
   * different result.
   */
  recorded?: ReadonlySet<string>;
  /** Runs after a call with effects completed, inside its step. */
  afterEffect?: (toolName: string) => Promise<void>;
  /** Counts what happened (tests, status). */
  onCall?: (event: {
    toolUseId: string;
    toolName: string;
    outcome: 'ran' | 'replayed' | 'interrupted';
  }) => void;
}

function readOnly(tool: AnyTool, input: unknown, context: ToolUseContext): boolean {
  try {
    return tool.isReadOnly(input, context) === true;
  } catch {
    return false;
  }
}

async function runToEnd(
  tool: AnyTool,
  input: unknown,
  context: ToolUseContext,
): Promise<ToolResult<unknown>> {
  const generator = tool.call(input, context);
  for (;;) {
    const step = await generator.next();
    if (step.done) return step.value;
  }
}

export function durableTool(tool: AnyTool, ctx: WorkflowContext, options: DurableToolsOptions): AnyTool {
  const wrapped = Object.create(tool) as AnyTool;
  return Object.assign(wrapped, {
    isConcurrencySafe: () => false,
    validateInput: (input: unknown, context: ToolUseContext) =>
      context.toolUseId && options.recorded?.has(`tool:${context.toolUseId}`)
        ? Promise.resolve({ ok: true as const })
        : tool.validateInput(input, context),
    // biome-ignore lint/correctness/useYield: a journaled call reports no progress.
    async *call(input: unknown, context: ToolUseContext): AsyncGenerator<never, ToolResult<unknown>, void> {
      const id = context.toolUseId;
      if (!id) throw new ToolError(`${tool.name}: a durable call needs its tool_use id`);
      const effects = !readOnly(tool, input, context);
      let startedEarlier = false;
      if (effects) {
        const mark = await ctx.step(`tool-start:${id}`, async () => ({ executionId: options.executionId }));
        startedEarlier = mark.executionId !== options.executionId;
      }
      let ran = false;
      const record = await ctx.step<RecordedCall>(`tool:${id}`, async () => {
        if (startedEarlier) return { interrupted: true };
        ran = true;
        try {
          const result = await runToEnd(tool, input, context);
          if (effects) await options.afterEffect?.(tool.name);
          return {
            data: result.data,
            ...(result.newMessages?.length ? { newMessages: result.newMessages } : {}),
          };
        } catch (error) {
          if (context.abortController.signal.aborted) throw error;
          if (effects) await options.afterEffect?.(tool.name).catch(() => undefined);
          return { error: { message: errorMessage(error), toolError: error instanceof ToolError } };
        }
      });
      const outcome = record.interrupted ? 'interrupted' : ran ? 'ran' : 'replayed';
      options.onCall?.({ toolUseId: id, toolName: tool.name, outcome });
      if (record.interrupted) throw new ToolError(INTERRUPTED_TEXT);
      if (record.error) {
        throw record.error.toolError ? new ToolError(record.error.message) : new Error(record.error.message);
      }
      return {
        data: record.data,
        ...(record.newMessages ? { newMessages: record.newMessages } : {}),
      };
    },
  });
}

export function durableTools(
  tools: readonly AnyTool[],
  ctx: WorkflowContext,
  options: DurableToolsOptions,
): AnyTool[] {
  return tools.map((t) => durableTool(t, ctx, options));
}
