/**
 * The two asks of the interactive face that are not yes/no permission prompts (Claude Code
 * documentation, "Tools reference" and "Permission modes"):
 *
 * - **AskUserQuestion**: each question as a picker (arrow keys; space toggles options of a
 *   `multiSelect` question; Enter confirms), always with an extra "Other" that asks for free text.
 *   The answers go back to the tool as `updatedInput.answers` (question text → the chosen label;
 *   several labels joined with ", "; the typed text for Other), the shape hooks and the Agent SDK
 *   use too.
 * - **ExitPlanMode**: the plan (read from the session's plan file) shown as Markdown, then a
 *   choice: approve and auto-accept edits (`acceptEdits`), approve and keep asking (`default`),
 *   approve and skip every prompt (`bypassPermissions`, only when the session may use it), or keep
 *   planning with feedback for the model. Approval switches the mode through the answer's
 *   `setMode` update; ExitPlanMode then keeps that mode.
 *
 * Escape / Ctrl-C in a dialog refuse the call and end the turn, like the permission prompt.
 */
import { readFileSync } from 'node:fs';
import { isCancel, multiselect, select, text } from '@clack/prompts';
import type { Readable, Writable } from 'node:stream';
import type { PermissionMode } from '../../core/permission-types.js';
import type { CanUseToolOptions, PermissionResult } from '../../loop/types.js';
import { renderMarkdownAnsi } from './markdown-ansi.js';
import type { Screen } from './screen.js';

export interface DialogDeps {
  screen: Screen;
  input: Readable;
  output: Writable;
  /** The session's plan file (ExitPlanMode reads the plan there). */
  planFile?: string;
  /** The session may switch to bypassPermissions. */
  bypassAvailable?: boolean;
  /** Colour on (Markdown rendering of the plan). */
  color?: boolean;
}

interface Question {
  question: string;
  header: string;
  multiSelect: boolean;
  options: { label: string; description: string }[];
}

const OTHER = '\u0000other';
const interrupted: PermissionResult = {
  behavior: 'deny',
  message: 'The user interrupted the turn.',
  interrupt: true,
};

function questionsOf(input: Record<string, unknown>): Question[] {
  const qs = input.questions;
  return Array.isArray(qs) ? (qs as Question[]) : [];
}

/** Puts each question to the person; resolves with the tool's updated input, or a refusal. */
export async function answerQuestions(
  input: Record<string, unknown>,
  options: CanUseToolOptions,
  deps: DialogDeps,
): Promise<PermissionResult> {
  const answers: Record<string, string> = {};
  for (const q of questionsOf(input)) {
    const choices = [
      ...q.options.map((o) => ({ value: o.label, label: o.label, hint: o.description })),
      { value: OTHER, label: 'Other', hint: 'type your own answer' },
    ];
    const message = `${q.header}: ${q.question}`;
    const common = { message, input: deps.input, output: deps.output, signal: options.signal };
    const picked = q.multiSelect
      ? await multiselect<string>({ ...common, options: choices, required: true })
      : await select<string>({ ...common, options: choices });
    if (isCancel(picked)) return interrupted;
    const labels = Array.isArray(picked) ? picked : [picked];
    const chosen = labels.filter((l) => l !== OTHER);
    if (labels.includes(OTHER)) {
      const own = await text({
        message: `${q.header}: your answer`,
        input: deps.input,
        output: deps.output,
        signal: options.signal,
      });
      if (isCancel(own)) return interrupted;
      if (own.trim()) chosen.push(own.trim());
    }
    answers[q.question] = chosen.join(', ');
  }
  return { behavior: 'allow', updatedInput: { ...input, answers } };
}

type PlanChoice = 'acceptEdits' | 'default' | 'bypassPermissions' | 'keep';

function readPlanText(input: Record<string, unknown>, file: string | undefined): string | undefined {
  if (typeof input.plan === 'string' && input.plan.trim()) return input.plan;
  if (!file) return undefined;
  try {
    const t = readFileSync(file, 'utf8');
    return t.trim() ? t : undefined;
  } catch {
    return undefined;
  }
}

/** Shows the plan and asks how to go on; resolves with the approval (and mode) or the feedback. */
export async function approvePlan(
  input: Record<string, unknown>,
  options: CanUseToolOptions,
  deps: DialogDeps,
): Promise<PermissionResult> {
  const { screen } = deps;
  // The screen holds its own writes while a dialog is open; the plan belongs to the dialog.
  const say = (line: string): void => void deps.output.write(`${line}\n`);
  const plan = readPlanText(input, deps.planFile);
  say(screen.style('bold', 'The plan:'));
  say(
    plan
      ? renderMarkdownAnsi(plan, { color: deps.color ?? false, width: Math.max(40, screen.columns - 4) })
      : screen.style('dim', `(no plan text found${deps.planFile ? ` in ${deps.planFile}` : ''})`),
  );
  if (deps.planFile) say(screen.style('dim', `Saved at ${deps.planFile}`));
  const choices: { value: PlanChoice; label: string }[] = [
    { value: 'acceptEdits', label: 'Yes, and accept edits without asking' },
    { value: 'default', label: 'Yes, and ask before each change' },
  ];
  if (deps.bypassAvailable)
    choices.push({ value: 'bypassPermissions', label: 'Yes, and skip every permission prompt' });
  choices.push({ value: 'keep', label: 'No, keep planning (tell the model what to change)' });
  const answer = await select<PlanChoice>({
    message: 'Go ahead with this plan?',
    options: choices,
    initialValue: 'default',
    input: deps.input,
    output: deps.output,
    signal: options.signal,
  });
  if (isCancel(answer)) return interrupted;
  if (answer !== 'keep') {
    const mode: PermissionMode = answer;
    return {
      behavior: 'allow',
      updatedPermissions: [{ type: 'setMode', mode, destination: 'session' }],
    };
  }
  const feedback = await text({
    message: 'What should change in the plan? (Enter for nothing specific)',
    input: deps.input,
    output: deps.output,
    signal: options.signal,
  });
  if (isCancel(feedback)) return interrupted;
  const said = feedback.trim();
  return {
    behavior: 'deny',
    message: said
      ? `The user wants to keep planning and said: ${said}`
      : 'The user wants to keep planning; stay in plan mode and refine the plan.',
  };
}
