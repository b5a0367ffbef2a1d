/**
 * `AskUserQuestion`: puts 1–4 multiple-choice questions to the person and gives the model their
 * answers.
 *
 * The model never answers: `answers` (question text → chosen label; several labels joined with
 * ", "; free text for the implicit "Other"), `annotations` and `metadata` are filled in by whoever
 * answers — the host (interactive picker, the Agent SDK's `canUseTool` through `updatedInput`) or a
 * PreToolUse hook (`permissionDecision: "allow"` with `updatedInput`). See describe.ts for how the
 * permission step routes a call without answers to them; a call that reaches `call` without
 * answers (nobody could answer, e.g. an allow rule in a headless run) is refused with a clear text.
 *
 * Output `{questions, answers, annotations?}`; the model text relays the answers in neutral wording.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, ToolExecutionError, type ToolUseContext } from '../../core/index.js';
import { askUserQuestionDescriber, hasAnswers } from './describe.js';

const description = readFileSync(
  fileURLToPath(new URL('./ask-user-question.prompt.md', import.meta.url)),
  'utf8',
).trimEnd();

/** Longest `header`, in characters. */
export const MAX_HEADER_CHARS = 12;

const OptionSchema = z.strictObject({
  label: z.string().min(1).describe('The choice, in one to five words'),
  description: z.string().describe('What choosing it means'),
  preview: z.string().optional().describe('Optional preview of the choice (Markdown)'),
});

const QuestionSchema = z.strictObject({
  question: z.string().min(1).describe('The complete question, ending with a question mark'),
  header: z
    .string()
    .min(1)
    .max(MAX_HEADER_CHARS)
    .describe(`A short label (at most ${MAX_HEADER_CHARS} characters)`),
  options: z.array(OptionSchema).min(2).max(4).describe('Two to four choices; "Other" is always added'),
  multiSelect: z.boolean().describe('Whether several options may be chosen'),
});

export const AskUserQuestionInput = z
  .strictObject({
    questions: z.array(QuestionSchema).min(1).max(4).describe('One to four questions'),
    answers: z
      .record(z.string(), z.string())
      .optional()
      .describe('Filled in by the host with the answers; never set it yourself'),
    annotations: z
      .record(z.string(), z.strictObject({ preview: z.string().optional(), notes: z.string().optional() }))
      .optional()
      .describe('Filled in by the host'),
    metadata: z.strictObject({ source: z.string().optional() }).optional().describe('Filled in by the host'),
  })
  .superRefine((input, ctx) => {
    const texts = new Set<string>();
    input.questions.forEach((q, i) => {
      if (texts.has(q.question))
        ctx.addIssue({
          code: 'custom',
          path: ['questions', i, 'question'],
          message: 'question texts must be unique',
        });
      texts.add(q.question);
      const labels = new Set<string>();
      q.options.forEach((o, j) => {
        if (labels.has(o.label))
          ctx.addIssue({
            code: 'custom',
            path: ['questions', i, 'options', j, 'label'],
            message: 'option labels must be unique within a question',
          });
        labels.add(o.label);
      });
    });
  });
export type AskUserQuestionInput = z.infer<typeof AskUserQuestionInput>;

export interface AskUserQuestionOutput {
  questions: AskUserQuestionInput['questions'];
  answers: Record<string, string>;
  annotations?: AskUserQuestionInput['annotations'];
}

/** The model text: each question with its answer; unanswered questions are named as such. */
export function answersText(output: AskUserQuestionOutput): string {
  const lines = output.questions.map((q) => {
    const answer = output.answers[q.question];
    const notes = output.annotations?.[q.question]?.notes;
    return `- "${q.question}" → ${answer !== undefined ? `"${answer}"` : '(no answer)'}${notes ? ` (notes: ${notes})` : ''}`;
  });
  return `The user answered your questions:\n${lines.join('\n')}\nContinue with these answers in mind.`;
}

export const AskUserQuestionTool = buildTool({
  name: 'AskUserQuestion',
  description,
  inputSchema: AskUserQuestionInput,
  maxResultSizeChars: 20_000,
  isReadOnly: (input: AskUserQuestionInput) => hasAnswers(input),
  isConcurrencySafe: () => false,
  userFacingName: () => 'Ask User',
  toAutoClassifierInput: askUserQuestionDescriber.toAutoClassifierInput,
  async describeCall(input: AskUserQuestionInput, context: ToolUseContext) {
    return askUserQuestionDescriber.describe(input, describeWorldOf(context));
  },
  async *call(input: AskUserQuestionInput, _context: ToolUseContext) {
    if (!input.answers || !hasAnswers(input))
      throw new ToolExecutionError(
        'Nobody answered these questions: no person is available here, and no host handler or PreToolUse hook supplied answers. Do not ask again; continue with your best judgement and state the assumptions you make.',
      );
    const data: AskUserQuestionOutput = {
      questions: input.questions,
      answers: input.answers,
      ...(input.annotations ? { annotations: input.annotations } : {}),
    };
    return { data };
  },
  mapToolResultToContent: (output: AskUserQuestionOutput) => answersText(output),
});
