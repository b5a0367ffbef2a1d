/**
 * What a WebSearch call would do, for the permission engine: a network request to the configured
 * search provider (the target is the provider, not a host a domain rule names: WebSearch takes
 * bare rules only). It changes nothing on the machine, hence `readOnly` — plan mode lets it
 * through — but the network effect keeps it from being allowed as a plain read: it asks unless a
 * `WebSearch` allow rule, a hook or the mode decides (docs/tool-traits.md).
 */
import { type FullToolDescriberEntry, stringField, textField } from '../../core/call-describer.js';
import { knownEffect, unknownEffect } from '../../core/effects.js';

export const webSearchDescriber: FullToolDescriberEntry = {
  name: 'WebSearch',
  describe: (input) => {
    const query = stringField(input, 'query');
    return {
      ruleContents: [],
      effects: [
        query === undefined
          ? unknownEffect('network', 'web search', 'tool-input', 'query is missing')
          : knownEffect('network', 'web search', 'tool-input', 'query'),
      ],
      findings: [],
      readOnly: true,
      summary: `WebSearch ${query ?? '(no query)'}`,
    };
  },
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => `web search: ${textField(input, 'query')}`.slice(0, 500),
};
