/**
 * What an Agent (alias Task) call would do, for the permission engine: nothing by itself. It
 * starts a sub-agent whose own calls are each decided on their own, so the trait table marks it
 * `noEffect` (core/tool-traits.ts) and the engine allows it unless a rule names it. Its rule
 * content is the `subagent_type` (`Agent(Explore)`). The tool itself lives in `src/agents/`.
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';

/** The agent type a call asks for (`general-purpose` when left out, as the tool defaults it). */
function agentType(input: Readonly<Record<string, unknown>>): string {
  return textField(input, 'subagent_type') || 'general-purpose';
}

export const agentDescriber: FullToolDescriberEntry = {
  name: 'Agent',
  describe: (input) => ({
    ruleContents: [agentType(input)],
    effects: [],
    findings: [],
    readOnly: false,
    summary: `Agent ${agentType(input)}: ${textField(input, 'description')}`,
  }),
  isReadOnly: () => false,
  toAutoClassifierInput: (input) =>
    `start a ${agentType(input)} sub-agent: ${textField(input, 'description')}`,
};
