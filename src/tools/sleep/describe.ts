/**
 * What a Sleep call would do, for the permission engine: nothing (it waits). The trait table marks
 * it `noEffect` (core/tool-traits.ts).
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

export const sleepDescriber: FullToolDescriberEntry = {
  name: 'Sleep',
  describe: () => ({ ruleContents: [], effects: [], findings: [], readOnly: true, summary: 'Sleep' }),
  isReadOnly: () => true,
  toAutoClassifierInput: (input) =>
    `sleep ${typeof input.duration_ms === 'number' ? input.duration_ms : ''}ms`,
};
