/**
 * What an AskUserQuestion call would do, for the permission engine. It touches nothing on the
 * machine, but it needs a person: a call without `answers` is not read-only, so the engine asks the
 * host (who shows the questions and answers through `updatedInput`), a PreToolUse hook may answer
 * it the same way, and with nobody to ask it is refused. A call that already carries the answers
 * (supplied by a hook or the host) is read-only.
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when the input carries at least one answer. */
export function hasAnswers(input: Readonly<Record<string, unknown>>): boolean {
  const answers = Object.hasOwn(input, 'answers') ? input.answers : undefined;
  return isObj(answers) && Object.keys(answers).length > 0;
}

export const askUserQuestionDescriber: FullToolDescriberEntry = {
  name: 'AskUserQuestion',
  describe: (input) => ({
    ruleContents: [],
    effects: [],
    findings: [],
    readOnly: hasAnswers(input),
    summary: 'AskUserQuestion',
  }),
  isReadOnly: hasAnswers,
  toAutoClassifierInput: () => '',
};
