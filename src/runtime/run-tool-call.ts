/**
 * One call's pipeline, in this order:
 *   1. tool known?                  no → NoSuchToolError
 *   2. input parsed (schema)?       no → InputValidationError naming the field
 *   3. tool.validateInput           { ok:false } → ToolInputError
 *   4–6. authorizeCall              checkPermissions + describeCall → decider → host on `ask`
 *        (an updated input is parsed and validated again)
 *   7. tool.call                    async generator: progress forwarded live, output returned; its
 *                                   context carries the description the decision was made on
 *   8. mapToolResultToContent(data, { toolUseId, input, context }), then the per-call cap
 *   9. the post-call hook (if the host gave one)
 * Anything thrown on the way goes to `errorToOutcome` (the one conversion point). The whole
 * pipeline races the turn's abort signal: an abort settles the call at once with an "aborted"
 * result, asks the generator to stop, and drops anything the call produces afterwards, so every
 * started call ends with exactly one result. The outcome carries the structured `data`, the input
 * the call ran with and the permission decision, for the host.
 */
import {
  AbortError,
  budgetChars,
  errorMessage,
  isAbortError,
  type Message,
  type PermissionDecider,
  ToolError,
  ToolExecutionError,
  ToolInputError,
  type ToolProgressEvent,
  type ToolResult,
  type ToolResultContent,
  type ToolUseContext,
  type ValidationResult,
} from '../core/index.js';
import { authorizeCall, observableInputOf } from './authorize-call.js';
import { schemaErrorToInputError } from './format-input-error.js';
import { effectiveMaxResultSizeChars } from './limits.js';
import { capCallResult } from './result-budget.js';
import { type CallStage, errorToOutcome, NoSuchToolError, notStartedOutcome } from './to-tool-result.js';
import type { CallOutcome, CanUseTool, PostCallHook, PreparedCall, ToolDecisionRecord } from './types.js';

/** What a call needs from its turn. */
export interface CallEnvironment {
  /** The turn's signal (a getter: reading it makes the signal; prefer `aborted`). */
  readonly signal: AbortSignal;
  /** True once the turn was aborted (without making its signal). */
  readonly aborted: boolean;
  /**
   * Registers `onAbort` to run once if the turn aborts while the call is in flight (at once when
   * it has); `offAbort` unregisters it. (One listener per turn, not per call; no closure per call.)
   */
  onAbort(onAbort: () => void): void;
  offAbort(onAbort: () => void): void;
  decide: PermissionDecider;
  canUseTool: CanUseTool | undefined;
  /** Delivers a progress event (to the context's sink and the turn's update stream). */
  emitProgress(event: ToolProgressEvent, context: ToolUseContext): void;
  /** Global inline cap (normally 50,000). */
  globalMaxResultSizeChars: number;
  /** Told about every call that started, after it ended. */
  postCall: PostCallHook | undefined;
}

interface Success {
  content: ToolResultContent;
  contextModifier: ((context: ToolUseContext) => ToolUseContext) | undefined;
  newMessages: Message[];
  data: unknown;
}

interface CallState {
  stage: CallStage;
  settled: boolean;
  generator: AsyncGenerator<unknown, ToolResult<unknown>, void> | undefined;
  /** The input the call runs with, once parsed (updated when the permission step changes it). */
  input: Record<string, unknown> | undefined;
  /** The input as hooks see it (`Tool.observableInput`), once the call is authorised. */
  hookInput?: Record<string, unknown>;
  decision: ToolDecisionRecord | undefined;
}

/** Throws ToolInputError unless `validateInput` answered `{ ok: true }`. */
function assertValid(verdict: ValidationResult | undefined): void {
  if (verdict?.ok === true) return;
  const message = verdict && verdict.ok === false ? verdict.message : 'the input was rejected';
  throw new ToolInputError(message, verdict && verdict.ok === false ? verdict.field : undefined);
}

function isContent(value: unknown): value is ToolResultContent {
  return typeof value === 'string' || Array.isArray(value);
}

async function pipeline(
  call: PreparedCall,
  context: ToolUseContext,
  env: CallEnvironment,
  state: CallState,
): Promise<Success> {
  const { tool, toolUse } = call;
  if (!tool) {
    throw new NoSuchToolError(`No such tool available: ${toolUse.name}`);
  }
  if (!call.parsed?.success) {
    throw schemaErrorToInputError(tool.name, call.parsed?.error, toolUse.input);
  }
  let input = call.parsed.data;
  state.input = input;
  assertValid(await tool.validateInput(input, context));

  const authorization = await authorizeCall({
    tool,
    input,
    toolUseId: toolUse.id,
    context,
    decide: env.decide,
    canUseTool: env.canUseTool,
    record: state,
  });
  let permittedCall = authorization.description;
  if (authorization.inputUpdated) {
    const reparsed = tool.inputSchema.safeParse(authorization.input);
    if (!reparsed.success) throw schemaErrorToInputError(tool.name, reparsed.error, authorization.input);
    input = reparsed.data as Record<string, unknown>;
    state.input = input;
    assertValid(await tool.validateInput(input, context));
    // The host approved this input: bind the call to what it names now.
    permittedCall = await tool.describeCall(input, context);
  }

  const hookInput = tool.observableInput ? await observableInputOf(tool, input, context) : undefined;
  if (hookInput) state.hookInput = hookInput;
  if (env.aborted) throw new AbortError();
  state.stage = 'running';
  // The call acts on what the decision was made on (docs/reliability.md "File operations"). The
  // context is this call's own object (the turn makes one per call), so it carries the description.
  context.permittedCall = permittedCall;
  const generator = tool.call(input, context) as AsyncGenerator<unknown, ToolResult<unknown>, void>;
  state.generator = generator;
  let result: ToolResult<unknown>;
  for (;;) {
    const step = await generator.next();
    if (step.done) {
      result = step.value;
      break;
    }
    if (state.settled) throw new AbortError();
    const event =
      context.agentId === undefined
        ? { toolUseId: toolUse.id, toolName: tool.name, data: step.value }
        : { toolUseId: toolUse.id, toolName: tool.name, agentId: context.agentId, data: step.value };
    env.emitProgress(event, context);
  }
  if (!result || typeof result !== 'object' || !('data' in result)) {
    throw new ToolExecutionError(`${tool.name} finished without a result (its call() returned no { data }).`);
  }
  const content = tool.mapToolResultToContent(result.data, { toolUseId: toolUse.id, input, context });
  if (!isContent(content)) {
    throw new ToolExecutionError(
      `${tool.name} produced no content for the model (result mapping returned ${typeof content}).`,
    );
  }
  return {
    content,
    contextModifier: result.contextModifier,
    newMessages: result.newMessages ?? [],
    data: result.data,
  };
}

/**
 * The structured output a failed call's error carries: a `ToolError` (or abort error) with an own
 * `data` property, e.g. the output of a Bash command that exited non-zero. Hosts store it like a
 * success's `data`.
 */
function structuredDataOf(error: unknown): { present: boolean; data?: unknown } {
  if (!(error instanceof ToolError || (error instanceof Error && isAbortError(error))))
    return { present: false };
  if (!Object.hasOwn(error, 'data')) return { present: false };
  return { present: true, data: (error as unknown as { data: unknown }).data };
}

/** Tells the post-call hook about a finished call; awaited unless the call was aborted. */
async function runPostCall(
  outcome: CallOutcome,
  state: CallState,
  context: ToolUseContext,
  env: CallEnvironment,
): Promise<void> {
  const hook = env.postCall;
  if (!hook || outcome.status === 'not-started') return;
  const event = {
    toolName: outcome.toolName,
    toolUseId: outcome.toolUseId,
    ...(context.agentId !== undefined ? { agentId: context.agentId } : {}),
    input: state.input,
    ...(state.hookInput ? { hookInput: state.hookInput } : {}),
    status: outcome.status,
    ran: state.stage === 'running',
    ...('data' in outcome ? { data: outcome.data } : {}),
    content: outcome.content,
    ...(state.decision ? { decision: state.decision } : {}),
    context,
    signal: env.signal,
  };
  const fail = (error: unknown): void => {
    outcome.postCallError = errorMessage(error) || 'the post-call hook failed without a message';
  };
  if (outcome.status === 'aborted') {
    // The call has settled already; the hook runs on, but nothing waits for it.
    try {
      void Promise.resolve(hook(event)).catch(() => undefined);
    } catch {
      // Nothing waits for an aborted call's hook.
    }
    return;
  }
  try {
    const answer = await hook(event);
    if (answer?.newMessages?.length) outcome.newMessages = [...outcome.newMessages, ...answer.newMessages];
  } catch (error) {
    fail(error);
  }
}

/**
 * Runs one prepared call to exactly one outcome. `context` is the context this call runs with
 * (the runtime sets `toolUseId`). Rethrows only `FatalError`.
 */
export async function runToolCall(
  call: PreparedCall,
  context: ToolUseContext,
  env: CallEnvironment,
): Promise<CallOutcome> {
  const toolName = call.tool?.name ?? call.toolUse.name;
  if (env.aborted) return notStartedOutcome({ index: call.index, toolUseId: call.toolUse.id, toolName });

  const startedAtMs = performance.now();
  const state: CallState = {
    stage: 'checking',
    settled: false,
    generator: undefined,
    input: undefined,
    decision: undefined,
  };
  const run = pipeline(call, context, env, state);
  // The race of the pipeline and the turn's abort: the abort handler is the promise's own
  // `resolve`, called with no value (the pipeline always settles with a Success object).
  let onAborted: (() => void) | undefined;
  const settled = new Promise<Success | undefined>((resolve, reject) => {
    onAborted = resolve as () => void;
    env.onAbort(onAborted);
    run.then(resolve, reject);
  });
  let success: Success;
  try {
    const first = await settled;
    if (first === undefined) {
      run.catch(() => undefined);
      throw new AbortError();
    }
    success = first;
  } catch (error) {
    state.settled = true;
    if (state.generator) state.generator.return(undefined as never).catch(() => undefined);
    const failed = errorToOutcome(error, {
      index: call.index,
      toolUseId: call.toolUse.id,
      toolName,
      stage: state.stage,
      durationMs: performance.now() - startedAtMs,
      aborted: env.aborted,
    });
    if (state.input) failed.input = state.input;
    if (state.decision) failed.decision = state.decision;
    const errorData = structuredDataOf(error);
    if (errorData.present && failed.status !== 'not-started') failed.data = errorData.data;
    if (env.postCall) await runPostCall(failed, state, context, env);
    return failed;
  } finally {
    if (onAborted) env.offAbort(onAborted);
  }
  state.settled = true;
  // Written out, not spread: a literal that spreads an object and then adds keys is built key by
  // key at run time by V8 (several times the time and memory of a plain literal).
  const outcome: CallOutcome = {
    index: call.index,
    toolUseId: call.toolUse.id,
    toolName,
    status: 'ok',
    content: success.content,
    isError: false,
    maxResultSizeChars: effectiveMaxResultSizeChars(
      call.tool?.maxResultSizeChars,
      env.globalMaxResultSizeChars,
    ),
    persisted: false,
    newMessages: success.newMessages,
    durationMs: performance.now() - startedAtMs,
    data: success.data,
  };
  if (state.input) outcome.input = state.input;
  if (state.decision) outcome.decision = state.decision;
  if (success.contextModifier) outcome.contextModifier = success.contextModifier;
  if (budgetChars(outcome.content) > outcome.maxResultSizeChars) {
    await capCallResult(outcome, context.getAppState().sessionDir);
  }
  if (env.postCall) await runPostCall(outcome, state, context, env);
  return outcome;
}
