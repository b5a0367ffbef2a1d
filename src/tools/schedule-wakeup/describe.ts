/**
 * What a ScheduleWakeup call would do, for the permission engine: nothing on the machine (it arms
 * a timer of this session; the prompt it later delivers is decided call by call like any). The
 * trait table marks it `noEffect`.
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

export const scheduleWakeupDescriber: FullToolDescriberEntry = {
  name: 'ScheduleWakeup',
  describe: () => ({
    ruleContents: [],
    effects: [],
    findings: [],
    readOnly: true,
    summary: 'ScheduleWakeup',
  }),
  isReadOnly: () => true,
  toAutoClassifierInput: () => '',
};
