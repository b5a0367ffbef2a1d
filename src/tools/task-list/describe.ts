/**
 * What the task-list tools would do, for the permission engine: nothing on the machine (they keep
 * the session's own task list). The trait table marks them `noEffect`.
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

function noEffect(name: string): FullToolDescriberEntry {
  return {
    name,
    describe: () => ({ ruleContents: [], effects: [], findings: [], readOnly: true, summary: name }),
    isReadOnly: () => true,
    toAutoClassifierInput: () => '',
  };
}

export const taskCreateDescriber = noEffect('TaskCreate');
export const taskGetDescriber = noEffect('TaskGet');
export const taskUpdateDescriber = noEffect('TaskUpdate');
export const taskListDescriber = noEffect('TaskList');
