/**
 * What an LSP call would do, for the permission engine: a read of `filePath` (the language server
 * reads the file and answers about it), so Read rules govern it like a Read call
 * (docs/tool-traits.md "Describers"; Claude Code documentation, "Permissions": Read rules apply,
 * best-effort, to LSP too).
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import { describeFileCall } from '../file-io/describe-call.js';

export const lspDescriber: FullToolDescriberEntry = {
  name: 'LSP',
  describe: (input, world) =>
    describeFileCall({ toolName: 'LSP', kind: 'read', field: 'filePath', input, world }),
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => `LSP ${textField(input, 'operation')} ${textField(input, 'filePath')}`,
};
