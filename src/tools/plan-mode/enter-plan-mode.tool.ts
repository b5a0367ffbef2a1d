/**
 * `EnterPlanMode`: switches the session to the `plan` permission mode, where only read-only calls
 * run (and writing the plan file), so the model explores and writes a plan before changing
 * anything. No prompt. Not for sub-agents (trait `subagents: never`; refused if called from one).
 *
 * State: `permissionMode ← 'plan'`, `prePlanPermissionMode ← the mode before`, `planFilePath ←`
 * the session's plan file (plan-file.ts). Output `{message}`.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, type ToolUseContext } from '../../core/index.js';
import { enterPlanModeDescriber } from './describe.js';
import { planFileFor } from './plan-file.js';

export const EnterPlanModeInput = z.strictObject({});
export type EnterPlanModeInput = z.infer<typeof EnterPlanModeInput>;

export interface EnterPlanModeOutput {
  message: string;
}

export const EnterPlanModeTool = buildTool({
  name: 'EnterPlanMode',
  description:
    'Switch to plan mode before a change that deserves a plan: several files, an unclear approach, or ' +
    'a decision the user should see first. In plan mode you can only read and search; you explore the ' +
    'code, write your plan to the plan file you are given, then call ExitPlanMode so the user can ' +
    'approve it. Skip it for small, clear changes.',
  inputSchema: EnterPlanModeInput,
  maxResultSizeChars: 5_000,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  userFacingName: () => 'Enter Plan Mode',
  toAutoClassifierInput: enterPlanModeDescriber.toAutoClassifierInput,
  async describeCall(input: EnterPlanModeInput, context: ToolUseContext) {
    return enterPlanModeDescriber.describe(input, describeWorldOf(context));
  },
  async validateInput(_input: EnterPlanModeInput, context: ToolUseContext) {
    if (context.agentId)
      return { ok: false as const, message: 'EnterPlanMode is not available to sub-agents.' };
    if (context.getAppState().permissionMode === 'plan')
      return { ok: false as const, message: 'The session is already in plan mode.' };
    return { ok: true as const };
  },
  async *call(_input: EnterPlanModeInput, context: ToolUseContext) {
    const state = context.getAppState();
    const planFilePath = state.planFilePath ?? planFileFor(state.sessionId);
    context.setAppState((prev) => ({
      ...prev,
      prePlanPermissionMode: prev.permissionMode,
      permissionMode: 'plan',
      planFilePath,
    }));
    const message =
      `Plan mode is on. Explore with read-only tools only and change nothing: no edits, no commands ` +
      `that modify anything. Write your plan (the steps, the files involved, how you will check the ` +
      `result) to the plan file ${planFilePath} — it is the one file you may write — and then call ` +
      `ExitPlanMode to ask the user to approve it. Ask questions with AskUserQuestion if something is unclear.`;
    return { data: { message } satisfies EnterPlanModeOutput };
  },
  mapToolResultToContent: (output: EnterPlanModeOutput) => output.message,
});
