/**
 * What a Write call would do, for the permission engine: a write of `file_path` (docs/tool-traits.md
 * "Describers"). Used by the Write tool's `describeCall` and by the guard for a host's Write calls.
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import { describeFileCall } from '../file-io/describe-call.js';

export const writeDescriber: FullToolDescriberEntry = {
  name: 'Write',
  describe: (input, world) =>
    describeFileCall({ toolName: 'Write', kind: 'write', field: 'file_path', input, world }),
  isReadOnly: () => false,
  toAutoClassifierInput: (input) => {
    const content = textField(input, 'content');
    return `Write ${textField(input, 'file_path')} (${content.length} chars): ${content.slice(0, 300)}`;
  },
};
