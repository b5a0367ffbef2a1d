/**
 * What a NotebookEdit call would do, for the permission engine: a write of `notebook_path`
 * (docs/tool-traits.md "Describers"). Used by the tool's `describeCall` and by the guard.
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import { describeFileCall } from '../file-io/describe-call.js';

export const notebookEditDescriber: FullToolDescriberEntry = {
  name: 'NotebookEdit',
  describe: (input, world) =>
    describeFileCall({ toolName: 'NotebookEdit', kind: 'write', field: 'notebook_path', input, world }),
  isReadOnly: () => false,
  toAutoClassifierInput: (input) =>
    `NotebookEdit ${textField(input, 'notebook_path')} ${textField(input, 'edit_mode') || 'replace'} ${textField(input, 'cell_id')}: ${textField(input, 'new_source').slice(0, 300)}`,
};
