/**
 * What a Read call would do, for the permission engine: a read of `file_path` (docs/tool-traits.md
 * "Describers"). Used by the Read tool's `describeCall` and by the guard for a host's Read calls.
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import { describeFileCall } from '../file-io/describe-call.js';

export const readDescriber: FullToolDescriberEntry = {
  name: 'Read',
  describe: (input, world) =>
    describeFileCall({ toolName: 'Read', kind: 'read', field: 'file_path', input, world }),
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => `Read ${textField(input, 'file_path')}`,
};
