/** The answers a permission prompt tool may give, and the ones that deny (fail closed). */
import { describe, expect, it } from 'vitest';
import { parsePromptToolAnswer } from './permission-prompt-tool.js';

describe('parsePromptToolAnswer', () => {
  it.each([
    ['{"behavior":"allow"}', { behavior: 'allow' }, 'a plain allow'],
    [
      ' {"behavior":"allow","updatedInput":{"command":"ls"}}\n',
      { behavior: 'allow', updatedInput: { command: 'ls' } },
      'allow with a new input, white space around',
    ],
    ['{"behavior":"deny","message":"no"}', { behavior: 'deny', message: 'no' }, 'deny with its reason'],
    [
      '{"behavior":"deny"}',
      { behavior: 'deny', message: 'Denied by the permission prompt tool' },
      'deny without a reason gets one',
    ],
    ['{"behavior":"allow","updatedInput":"ls"}', undefined, 'an updatedInput that is not an object'],
    ['{"behavior":"ask"}', undefined, 'a behaviour other than allow or deny'],
    ['allow', undefined, 'not JSON'],
    ['["allow"]', undefined, 'JSON that is not an object'],
    ['', undefined, 'no text at all'],
  ])('%j → %j (%s)', (text, expected, _why) => {
    expect(parsePromptToolAnswer(text)).toEqual(expected);
  });
});
