/**
 * What the background-task tools' calls would do, for the permission engine: nothing the engine
 * can judge by path — they read or stop this session's own tasks. The trait table marks them
 * `noEffect` (core/tool-traits.ts), so the engine allows them unless a rule names them
 * (docs/tool-traits.md).
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';
import type { CallDescription } from '../../core/permission-types.js';

const noEffects = (summary: string): CallDescription => ({
  ruleContents: [],
  effects: [],
  findings: [],
  readOnly: false,
  summary,
});

const taskId = (input: Readonly<Record<string, unknown>>, legacy: string): string =>
  textField(input, 'task_id') || textField(input, legacy);

export const taskOutputDescriber: FullToolDescriberEntry = {
  name: 'TaskOutput',
  describe: (input) => ({ ...noEffects(`TaskOutput ${taskId(input, 'bash_id')}`), readOnly: true }),
  isReadOnly: () => true,
  toAutoClassifierInput: (input) => `read output of task ${taskId(input, 'bash_id')}`,
};

export const taskStopDescriber: FullToolDescriberEntry = {
  name: 'TaskStop',
  describe: (input) => noEffects(`TaskStop ${taskId(input, 'shell_id')}`),
  isReadOnly: () => false,
  toAutoClassifierInput: (input) => `stop task ${taskId(input, 'shell_id')}`,
};
