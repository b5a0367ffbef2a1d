/**
 * What a TodoWrite call would do, for the permission engine: nothing on the machine (it replaces
 * the agent's to-do list in the session's state). The trait table marks it `noEffect`.
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

export const todoWriteDescriber: FullToolDescriberEntry = {
  name: 'TodoWrite',
  describe: () => ({ ruleContents: [], effects: [], findings: [], readOnly: true, summary: 'TodoWrite' }),
  isReadOnly: () => true,
  toAutoClassifierInput: () => '',
};
