/**
 * What the plan-mode tools would do, for the permission engine. EnterPlanMode changes only the
 * session's mode (no effect on the machine, no prompt). ExitPlanMode needs the person's approval of
 * the plan: it is never read-only, so the engine asks the host (or a PreToolUse hook decides), and
 * with nobody to ask it is refused and the session stays in plan mode.
 */
import type { FullToolDescriberEntry } from '../../core/call-describer.js';

export const enterPlanModeDescriber: FullToolDescriberEntry = {
  name: 'EnterPlanMode',
  describe: () => ({ ruleContents: [], effects: [], findings: [], readOnly: true, summary: 'EnterPlanMode' }),
  isReadOnly: () => true,
  toAutoClassifierInput: () => '',
};

export const exitPlanModeDescriber: FullToolDescriberEntry = {
  name: 'ExitPlanMode',
  describe: () => ({ ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'ExitPlanMode' }),
  isReadOnly: () => false,
  toAutoClassifierInput: () => '',
};
