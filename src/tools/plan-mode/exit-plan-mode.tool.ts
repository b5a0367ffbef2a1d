/**
 * `ExitPlanMode`: presents the plan for approval and, once approved, leaves plan mode.
 *
 * Approval is the permission step (describe.ts): the call is never read-only, so the host asks the
 * person (interactive), or the Agent SDK's `canUseTool` / a PreToolUse hook decides (headless);
 * refused → the model gets the refusal (with the person's feedback) and the session stays in plan
 * mode. When the call runs, it was approved:
 *
 * 1. the plan: the session's plan file (`AppState.planFilePath`); the classic input `plan`
 *    (older models send the plan text) is written to that file first;
 * 2. the mode: back to the mode the session had before EnterPlanMode (`default` when it was
 *    unknown), unless the host already switched it while approving (`setMode`);
 * 3. output `{plan, isAgent, filePath}`; the model is told the plan was approved, with its path
 *    and text.
 *
 * `allowedPrompts` (deprecated, Claude Code ignores it) is accepted and ignored.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, ToolExecutionError, type ToolUseContext } from '../../core/index.js';
import { writeFileAtomic } from '../file-io/atomic-write.js';
import { exitPlanModeDescriber } from './describe.js';
import { planFileFor, readPlan } from './plan-file.js';

export const ExitPlanModeInput = z.strictObject({
  plan: z
    .string()
    .optional()
    .describe('The plan in Markdown, when it was not written to the plan file (older clients)'),
  allowedPrompts: z
    .array(z.strictObject({ tool: z.string(), prompt: z.string() }))
    .optional()
    .describe('Deprecated; ignored'),
});
export type ExitPlanModeInput = z.infer<typeof ExitPlanModeInput>;

export interface ExitPlanModeOutput {
  plan: string | null;
  isAgent: boolean;
  filePath?: string;
}

function planPath(context: ToolUseContext): string {
  const state = context.getAppState();
  return state.planFilePath ?? planFileFor(state.sessionId);
}

export const ExitPlanModeTool = buildTool({
  name: 'ExitPlanMode',
  description:
    'In plan mode, once your plan is written to the plan file, call this to present it to the user for ' +
    'approval. It reads the plan from the file. If the user approves, plan mode ends and you carry out ' +
    'the plan; if not, you stay in plan mode with their feedback. Use it only for plans of work that ' +
    'changes code, not after pure research, and not to ask questions (use AskUserQuestion for those).',
  inputSchema: ExitPlanModeInput,
  maxResultSizeChars: 100_000,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  userFacingName: () => 'Exit Plan Mode',
  toAutoClassifierInput: exitPlanModeDescriber.toAutoClassifierInput,
  // Hooks see the plan and where it lives, as in Claude Code (documentation, "Hooks reference").
  async observableInput(input: ExitPlanModeInput, context: ToolUseContext) {
    const planFilePath = planPath(context);
    const plan = input.plan?.trim() ? input.plan : ((await readPlan(planFilePath)) ?? '');
    return { ...input, plan, planFilePath };
  },
  async describeCall(input: ExitPlanModeInput, context: ToolUseContext) {
    return exitPlanModeDescriber.describe(input, describeWorldOf(context));
  },
  async validateInput(input: ExitPlanModeInput, context: ToolUseContext) {
    if (context.getAppState().permissionMode !== 'plan')
      return { ok: false as const, message: 'The session is not in plan mode, so there is no plan to exit.' };
    if (input.plan === undefined && (await readPlan(planPath(context))) === undefined)
      return {
        ok: false as const,
        message: `The plan file ${planPath(context)} is missing or empty. Write your plan there first, then call ExitPlanMode again.`,
      };
    return { ok: true as const };
  },
  async *call(input: ExitPlanModeInput, context: ToolUseContext) {
    const file = planPath(context);
    if (input.plan !== undefined && input.plan.trim()) {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(file, Buffer.from(input.plan), { mode: 0o600 });
    }
    const plan = await readPlan(file);
    if (plan === undefined)
      throw new ToolExecutionError(`The plan file ${file} is missing or empty; write the plan there first.`);
    context.setAppState((prev) => {
      const back =
        prev.prePlanPermissionMode && prev.prePlanPermissionMode !== 'plan'
          ? prev.prePlanPermissionMode
          : 'default';
      const { prePlanPermissionMode: _dropped, ...rest } = prev;
      return prev.permissionMode === 'plan' ? { ...rest, permissionMode: back } : rest;
    });
    const data: ExitPlanModeOutput = { plan, isAgent: Boolean(context.agentId), filePath: file };
    return { data };
  },
  mapToolResultToContent: (output: ExitPlanModeOutput) =>
    `The user approved your plan, and plan mode is off: you can start making changes now (update your ` +
    `to-do list first if you keep one).\n\nThe plan is saved at ${output.filePath}; refer to it as you ` +
    `work.\n\n## Approved plan\n${output.plan ?? ''}`,
});
