import { describe, expect, it } from 'vitest';
import { blockedSleepMessage, leadingSleepSeconds } from './validate-sleep.js';

describe('foreground sleep validation', () => {
  it.each([
    ['sleep 5', 5, 'standalone sleep'],
    ['sleep 3 && npm test', 3, 'leading sleep before another command'],
    ['sleep 10; curl localhost', 10, 'leading sleep with ;'],
    ['  sleep 1m', 60, 'minutes suffix, leading spaces'],
    ['sleep 1 2', 3, 'several operands add up (GNU sleep)'],
    ['sleep 2.5 | cat', 2.5, 'fractional seconds in a pipeline'],
    ['sleep infinity', Number.POSITIVE_INFINITY, 'infinity'],
    ['sleep 5 &', undefined, 'the shell backgrounds it itself'],
    ['sleep $DELAY', undefined, 'a non-literal duration is not judged'],
    ['npm test && sleep 30', undefined, 'not the leading command'],
    ['sleepy 30', undefined, 'a different program'],
    ['echo sleep 30', undefined, 'sleep as an argument'],
  ])('%j → %s (%s)', (command, seconds, _why) => {
    expect(leadingSleepSeconds(command)).toBe(seconds);
  });

  it.each([
    ['sleep 5', false, true, 'over 2 s in the foreground is refused'],
    ['sleep 2', false, false, 'exactly 2 s is allowed'],
    ['sleep 1.5 && ls', false, false, 'short waits are allowed'],
    ['sleep 60', true, false, 'run_in_background may sleep'],
    ['sleep $X', false, false, 'unknown durations are allowed'],
  ])('%j (background=%s) blocked=%s (%s)', (command, background, blocked, _why) => {
    expect(blockedSleepMessage(command, background) !== undefined).toBe(blocked);
  });

  it('tells the model what to do instead', () => {
    expect(blockedSleepMessage('sleep 30', false)).toMatch(/run_in_background: true.*TaskOutput/s);
  });
});
