/**
 * The tool seam of a durable session: each tool of the session wrapped so that one call is one
 * entry of the workflow's call journal, keyed by its `tool_use_id` (docs/fleet.md, "What is
 * journaled"; the journal is `CallJournal` in engine.ts: one durable write per claim or record).
 *
 * - A call that completed (result or error) replays its record: `data` and `newMessages`, or the
 *   error's text, rethrown as the same kind (`ToolError` or `Error`) so the runtime renders it the
 *   same way. The permission decision is made again (rules and modes are the session's; an ask
 *   replays its recorded answer). Tools' session state from replayed calls is not rebuilt: after a
 *   resume, Edit/Write of a file the session read before the crash asks the model to Read it again
 *   (a clear error, never a blind write).
 * - A read-only call (`tool.isReadOnly(input, context)`: the trait table and the effect model
 *   behind it; an MCP tool's read-only hint) runs and then records its outcome: one write. One
 *   that was cut off is simply run again.
 * - A call with effects first claims its id (one write, holding this execution's id), then runs,
 *   then records its outcome (a second write). When an execution finds the claim of an earlier
 *   one without a record, the call was cut off mid-run: it is not run again, the outcome
 *   `interrupted` is recorded, and the model gets the error `interrupted: may have partly
 *   completed …` ({@link INTERRUPTED_TEXT}) as its result.
 * - A call with any entry from an earlier execution skips `validateInput`: the checks saw the world
 *   before the call, and the call's own effects (a file Write created) would now fail them, turning
 *   a replay, or the report of an interrupted call, into a different result.
 * - A call aborted by the session (cancellation, a lost database) records nothing: a call with
 *   effects then counts as cut off.
 * - Every wrapped tool says it is not concurrency-safe, so a session's calls (and their asks,
 *   which are steps of the workflow) run one at a time in the model's order. Progress events of a
 *   journaled call are not forwarded.
 * - `afterEffect` (placement's checkpoint of the working tree) runs after a call with effects
 *   ended and before its record is written, so a record means the checkpoint is in the branch.
 */
import type { AnyTool, ToolResult, ToolUseContext } from '../core/index.js';
import { errorMessage, ToolError } from '../core/errors.js';
import type { Message } from '../core/messages.js';
import type { CallJournal } from './engine.js';

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
  /** This execution's call journal (`WorkflowContext.openCalls`). */
  calls: CallJournal;
  /** Runs after a call with effects ended, before its record is written. */
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

/** Runs the call, or says why it did not run: the record to write. */
async function execute(
  tool: AnyTool,
  input: unknown,
  context: ToolUseContext,
  effects: boolean,
  afterEffect: DurableToolsOptions['afterEffect'],
): Promise<RecordedCall> {
  try {
    const result = await runToEnd(tool, input, context);
    if (effects) await afterEffect?.(tool.name);
    return {
      data: result.data,
      ...(result.newMessages?.length ? { newMessages: result.newMessages } : {}),
    };
  } catch (error) {
    if (context.abortController.signal.aborted) throw error;
    if (effects) await afterEffect?.(tool.name).catch(() => undefined);
    return { error: { message: errorMessage(error), toolError: error instanceof ToolError } };
  }
}

export function durableTool(tool: AnyTool, options: DurableToolsOptions): AnyTool {
  const { calls } = options;
  const wrapped = Object.create(tool) as AnyTool;
  return Object.assign(wrapped, {
    isConcurrencySafe: () => false,
    validateInput: (input: unknown, context: ToolUseContext) =>
      context.toolUseId && calls.entries.has(context.toolUseId)
        ? Promise.resolve({ ok: true as const })
        : tool.validateInput(input, context),
    // biome-ignore lint/correctness/useYield: a journaled call reports no progress.
    async *call(input: unknown, context: ToolUseContext): AsyncGenerator<never, ToolResult<unknown>, void> {
      const id = context.toolUseId;
      if (!id) throw new ToolError(`${tool.name}: a durable call needs its tool_use id`);
      const earlier = calls.entries.get(id);
      let record = earlier?.record as RecordedCall | undefined;
      let outcome: 'ran' | 'replayed' | 'interrupted' = 'replayed';
      if (!record) {
        const effects = !readOnly(tool, input, context);
        // A claim already there (from an earlier execution) means the call was cut off mid-run.
        const mine = earlier === undefined && (!effects || (await calls.claim(id)));
        if (mine) {
          record = await execute(tool, input, context, effects, options.afterEffect);
          outcome = 'ran';
        } else {
          record = { interrupted: true };
        }
        await calls.record(id, record);
      }
      if (record.interrupted) outcome = 'interrupted';
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

export function durableTools(tools: readonly AnyTool[], options: DurableToolsOptions): AnyTool[] {
  return tools.map((t) => durableTool(t, options));
}
