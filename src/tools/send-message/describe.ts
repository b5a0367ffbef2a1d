/**
 * What a SendMessage call would do, for the permission engine: nothing outside the session. It
 * hands text to another agent of the session (or a teammate's mailbox under `~/.gantry/teams/`);
 * whatever the receiver then does is decided call by call. The trait table marks it `noEffect`
 * (core/tool-traits.ts). The tool itself lives in `src/agents/messaging/` (it reaches other loops).
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';

export const sendMessageDescriber: FullToolDescriberEntry = {
  name: 'SendMessage',
  describe: (input) => ({
    ruleContents: [],
    effects: [],
    findings: [],
    readOnly: false,
    summary: `SendMessage to ${textField(input, 'to')}`,
  }),
  isReadOnly: () => false,
  toAutoClassifierInput: (input) => `message to agent ${textField(input, 'to')}`,
};
