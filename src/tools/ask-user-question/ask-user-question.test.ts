/**
 * AskUserQuestion through the runtime: the input limits (1–4 questions, 2–4 options, header ≤ 12
 * characters, unique texts), routing of a call without answers to the host's ask (which answers
 * through `updatedInput`), and the neutral relay of the answers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionDecider } from '../../core/index.js';
import { createToolRuntime } from '../../runtime/create-tool-runtime.js';
import { makeTempDir, toolUse } from '../../testing/runtime-fixtures.js';
import { AskUserQuestionTool } from './ask-user-question.tool.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

const question = (over: Record<string, unknown> = {}) => ({
  question: 'Which one?',
  header: 'Choice',
  options: [
    { label: 'A', description: 'first' },
    { label: 'B', description: 'second' },
  ],
  multiSelect: false,
  ...over,
});

/** Asks for every call that is not read-only; allows read-only ones (as the engine does here). */
const askUnlessReadOnly: PermissionDecider = async (request) =>
  request.isReadOnly || request.description.readOnly
    ? { behavior: 'allow', reason: { type: 'read-only', message: 'read-only' } as never }
    : { behavior: 'ask', reason: { type: 'default', message: 'needs a person' } as never, suggestions: [] };

describe('AskUserQuestion', () => {
  it.each([
    [{ questions: [] }, 'questions', 'no question'],
    [
      { questions: [1, 2, 3, 4, 5].map((i) => question({ question: `Q${i}?` })) },
      'questions',
      'five questions',
    ],
    [{ questions: [question({ options: [{ label: 'A', description: '' }] })] }, 'options', 'one option'],
    [{ questions: [question({ header: 'Thirteen char' })] }, 'header', 'a 13-character header'],
    [{ questions: [question(), question()] }, 'unique', 'the same question twice'],
    [
      {
        questions: [
          question({
            options: [
              { label: 'A', description: '' },
              { label: 'A', description: '' },
            ],
          }),
        ],
      },
      'unique',
      'the same label twice',
    ],
  ])('rejects %j (mentions %s; %s)', async (input, phrase, _reason) => {
    const runtime = createToolRuntime({ tools: [AskUserQuestionTool], cwd: temp.dir, sessionDir: temp.dir });
    const { results } = await runtime.runToolsToCompletion([toolUse('q', 'AskUserQuestion', input)]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toContain(phrase);
    await runtime.services.dispose();
  });

  it('a call without answers goes to the host, whose updatedInput answers it', async () => {
    const asked: Record<string, unknown>[] = [];
    const runtime = createToolRuntime({
      tools: [AskUserQuestionTool],
      cwd: temp.dir,
      sessionDir: temp.dir,
      decide: askUnlessReadOnly,
      canUseTool: async (_tool, input) => {
        asked.push(input);
        return { behavior: 'allow', updatedInput: { ...input, answers: { 'Which one?': 'B' } } };
      },
    });
    const { results, calls } = await runtime.runToolsToCompletion([
      toolUse('q', 'AskUserQuestion', { questions: [question()] }),
    ]);
    expect(asked).toHaveLength(1);
    expect(results[0]?.is_error ?? false).toBe(false);
    expect(results[0]?.content).toBe(
      'The user answered your questions:\n- "Which one?" → "B"\nContinue with these answers in mind.',
    );
    expect(calls[0]?.data).toEqual({ questions: [question()], answers: { 'Which one?': 'B' } });
    await runtime.services.dispose();
  });

  it('reaching the tool without answers (nobody answered) is refused clearly', async () => {
    const runtime = createToolRuntime({
      tools: [AskUserQuestionTool],
      cwd: temp.dir,
      sessionDir: temp.dir,
      decide: async () => ({
        behavior: 'allow',
        reason: { type: 'rule', message: 'allowed by a rule' } as never,
      }),
    });
    const { results } = await runtime.runToolsToCompletion([
      toolUse('q', 'AskUserQuestion', { questions: [question()] }),
    ]);
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toMatch(/Nobody answered these questions/);
    await runtime.services.dispose();
  });
});
