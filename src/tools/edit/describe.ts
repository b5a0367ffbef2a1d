/**
 * What an Edit call would do, for the permission engine: a write of `file_path` (docs/tool-traits.md
 * "Describers"). Used by the Edit tool's `describeCall` and by the guard for a host's Edit calls.
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import { describeFileCall } from '../file-io/describe-call.js';

export const editDescriber: FullToolDescriberEntry = {
  name: 'Edit',
  describe: (input, world) =>
    describeFileCall({ toolName: 'Edit', kind: 'write', field: 'file_path', input, world }),
  isReadOnly: () => false,
  toAutoClassifierInput: (input) =>
    `Edit ${textField(input, 'file_path')}: ${textField(input, 'new_string').slice(0, 300)}`,
};
