/**
 * What a ToolSearch call would do, for the permission engine: nothing on the machine (it only
 * tells the model about tools it already has). The trait table marks it `noEffect`.
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

export const toolSearchDescriber: FullToolDescriberEntry = {
  name: 'ToolSearch',
  describe: (input) => ({
    ruleContents: [],
    effects: [],
    findings: [],
    readOnly: true,
    summary: `ToolSearch ${typeof input.query === 'string' ? input.query.slice(0, 200) : ''}`.trim(),
  }),
  isReadOnly: () => true,
  toAutoClassifierInput: (input) =>
    typeof input.query === 'string' ? `tool search: ${input.query.slice(0, 200)}` : '',
};
