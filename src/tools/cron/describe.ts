/**
 * What the Cron tools would do, for the permission engine: nothing on the machine beyond Gantry's
 * own scheduled-tasks file (the prompts they later deliver are decided call by call like any).
 * The trait table marks them `noEffect`.
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

export const cronCreateDescriber = noEffect('CronCreate');
export const cronDeleteDescriber = noEffect('CronDelete');
export const cronListDescriber = noEffect('CronList');
