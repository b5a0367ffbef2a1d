/**
 * Permission phase of one call (docs/runtime.md; docs/architecture.md "A call's life"):
 *   tool.checkPermissions + tool.describeCall → decider (data in, decision out)
 *   → `ask` goes to the host's `canUseTool` (no host → deny)
 *   → the input to run with (possibly updated by the decider or the host).
 * Refusals are thrown as `PermissionDeniedError`; the one conversion point turns them into results.
 * A decider that throws denies (fail closed). Every outcome is reported through `record` (the call's
 * outcome carries it to the host).
 */
import {
  type AnyTool,
  type CallDescription,
  errorMessage,
  type PermissionDecider,
  type PermissionDecision,
  PermissionDeniedError,
  type ToolUseContext,
} from '../core/index.js';
import { buildPermissionRequest } from '../core/permission-request.js';
import type { CanUseTool, ToolDecisionRecord } from './types.js';

export interface AuthorizeCallOptions {
  tool: AnyTool;
  input: Record<string, unknown>;
  toolUseId: string;
  context: ToolUseContext;
  decide: PermissionDecider;
  canUseTool: CanUseTool | undefined;
  /**
   * Gets how the permission step ended (its `decision` is set before `authorizeCall` returns or
   * throws). An object, not a callback: no closure per call.
   */
  record?: { decision: ToolDecisionRecord | undefined };
}

/** The verdict: run with `input`, and whether it was changed on the way (then it is parsed again). */
export interface Authorization {
  input: Record<string, unknown>;
  inputUpdated: boolean;
  /** What the decision was made on (for an updated input: the original input's description). */
  description: CallDescription;
}

/** Tells `sink` how the permission step ended. */
function note(sink: AuthorizeCallOptions['record'], decision: ToolDecisionRecord): void {
  if (sink) sink.decision = decision;
}

/** A decider that throws denies (fail closed). */
function deciderFailure(error: unknown): PermissionDecision {
  return {
    behavior: 'deny',
    reason: {
      type: 'error',
      message: `The permission check failed (${errorMessage(error)}), so the call was denied.`,
    },
  };
}

/**
 * The input hooks see (`Tool.observableInput`), or undefined when the tool adds nothing. A tool
 * that fails to compute it gives hooks the plain input (hooks lose a convenience, not a check).
 */
export async function observableInputOf(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
): Promise<Record<string, unknown> | undefined> {
  if (!tool.observableInput) return undefined;
  try {
    return await tool.observableInput(input, context);
  } catch {
    return undefined;
  }
}

/**
 * A hook's `updatedInput` without the fields the harness injected for hooks and the hook echoed
 * back unchanged (a hook that returns `{...tool_input, x}` must not make the strict schema fail).
 */
function withoutEchoedFields(
  updated: Record<string, unknown>,
  input: Record<string, unknown>,
  hookInput: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!hookInput) return updated;
  const out = { ...updated };
  for (const [key, value] of Object.entries(hookInput))
    if (!(key in input) && key in out && out[key] === value) delete out[key];
  return out;
}

/**
 * Decides whether the call may run. Returns the input to run with; throws PermissionDeniedError
 * on deny (with the reason), on a host refusal (with the host's message) and on `ask` without a host.
 * Errors thrown by `checkPermissions`/`describeCall` propagate (they become is_error results).
 */
export async function authorizeCall(options: AuthorizeCallOptions): Promise<Authorization> {
  const { tool, input, toolUseId, context } = options;
  const sink = options.record;
  const toolResult = await tool.checkPermissions(input, context);
  const description = await tool.describeCall(input, context);
  const hookInput = tool.observableInput ? await observableInputOf(tool, input, context) : undefined;
  const requestOptions: Parameters<typeof buildPermissionRequest>[0] = {
    tool,
    input,
    description,
    toolResult,
    toolUseId,
    session: context.getAppState(),
    context,
  };
  if (hookInput) requestOptions.hookInput = hookInput;
  const request = buildPermissionRequest(requestOptions);
  let decision: PermissionDecision;
  try {
    decision = await options.decide(request);
  } catch (error) {
    decision = deciderFailure(error);
  }

  if (decision.behavior === 'allow') {
    note(sink, { behavior: 'allow', source: decision.reason.type });
    return decision.updatedInput
      ? {
          input: withoutEchoedFields(decision.updatedInput, input, hookInput),
          inputUpdated: true,
          description,
        }
      : { input, inputUpdated: false, description };
  }
  if (decision.behavior === 'deny') {
    note(sink, { behavior: 'deny', source: decision.reason.type });
    throw new PermissionDeniedError(
      `Permission to use ${tool.name} was denied: ${decision.reason.message} Do not retry the same call; choose another approach or ask the user.`,
    );
  }

  const askInput = decision.updatedInput
    ? withoutEchoedFields(decision.updatedInput, input, hookInput)
    : input;
  if (!options.canUseTool) {
    note(sink, { behavior: 'deny', source: 'no-host' });
    throw new PermissionDeniedError(
      `Permission to use ${tool.name} is required (${decision.reason.message}), but there is no one to ask here, so the call was denied. Ask the user to allow it, or choose another approach.`,
    );
  }
  let answer: Awaited<ReturnType<CanUseTool>>;
  try {
    answer = await options.canUseTool(tool, askInput, decision, context);
  } catch (error) {
    answer = { behavior: 'deny', message: `the permission prompt failed (${errorMessage(error)})` };
  }
  if (answer?.behavior === 'allow') {
    note(sink, { behavior: 'allow', source: 'host' });
    if (answer.updatedInput)
      return {
        input: withoutEchoedFields(answer.updatedInput, input, hookInput),
        inputUpdated: true,
        description,
      };
    return { input: askInput, inputUpdated: askInput !== input, description };
  }
  note(sink, { behavior: 'deny', source: 'host' });
  const message = answer?.behavior === 'deny' && answer.message ? answer.message : 'no reason given';
  throw new PermissionDeniedError(
    `Permission for this ${tool.name} call was refused: ${message.replace(/\.$/, '')}. Do not retry it unchanged; adjust your approach.`,
  );
}
