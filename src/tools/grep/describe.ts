/**
 * What a Grep call would do, for the permission engine: a read of the file or directory it searches,
 * `path` (default: the cwd), symlinks resolved (docs/tool-traits.md "Describers").
 */
import { type DescribeWorld, type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import { unknownEffect } from '../../core/effects.js';
import type { CallDescription } from '../../core/permission-types.js';
import { describeSearchRoot, searchRootAsNamedIn, searchRootIn } from '../ripgrep/search-paths.js';

function describeGrep(input: Readonly<Record<string, unknown>>, world: DescribeWorld): CallDescription {
  const pathInput = Object.hasOwn(input, 'path') ? input.path : undefined;
  if (pathInput !== undefined && typeof pathInput !== 'string')
    return {
      ruleContents: [],
      effects: [unknownEffect('read', String(pathInput), 'tool-input', 'path is not a string')],
      findings: [],
      readOnly: false,
      summary: 'Grep (invalid input)',
    };
  return describeSearchRoot(
    'Grep',
    textField(input, 'pattern'),
    searchRootIn(pathInput, world),
    searchRootAsNamedIn(pathInput, world),
  );
}

export const grepDescriber: FullToolDescriberEntry = {
  name: 'Grep',
  describe: describeGrep,
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => {
    const p = textField(input, 'path');
    return `${textField(input, 'pattern')}${p ? ` in ${p}` : ''}`;
  },
};
