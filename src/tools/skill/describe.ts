/**
 * What a Skill call would do, for the permission engine: it loads instructions (and may run the
 * skill's inline commands, each decided on its own as a Bash call). Rules: `Skill` (every skill),
 * `Skill(name)` (that skill, without arguments), `Skill(name *)` (that skill with any arguments):
 * the rule content is `name`, or `name args`. Not read-only, so without a rule it asks.
 */
import { type FullToolDescriberEntry, stringField } from '../../core/call-describer.js';

/** The skill name as the model may write it (`/deploy` → `deploy`). */
export function skillNameOf(input: Readonly<Record<string, unknown>>): string | undefined {
  return stringField(input, 'skill')?.trim().replace(/^\//, '') || undefined;
}

export const skillDescriber: FullToolDescriberEntry = {
  name: 'Skill',
  describe: (input) => {
    const name = skillNameOf(input);
    const args = stringField(input, 'args')?.trim();
    const content = name ? (args ? `${name} ${args}` : name) : undefined;
    return {
      ruleContents: content ? [content] : [],
      effects: [],
      findings: [],
      readOnly: false,
      summary: content ? `Skill ${content}` : 'Skill',
    };
  },
  isReadOnly: () => false,
  toAutoClassifierInput: (input) => skillNameOf(input) ?? '',
};
