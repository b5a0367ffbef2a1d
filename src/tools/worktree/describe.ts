/**
 * What the worktree tools would do, for the permission engine. Neither has a file effect the
 * engine must check path by path: EnterWorktree makes (or enters) a checkout and moves the
 * session there, ExitWorktree moves it back and may remove the checkout this session made. The
 * tools' own `checkPermissions` decides: a name, or a path inside the worktrees folder, needs no
 * prompt; a path elsewhere asks (Claude Code documentation, "Tools reference": EnterWorktree).
 * Rules name them as `EnterWorktree(<name or path>)` / `ExitWorktree(keep|remove)`.
 */
import { type FullToolDescriberEntry, textField } from '../../core/call-describer.js';

export const enterWorktreeDescriber: FullToolDescriberEntry = {
  name: 'EnterWorktree',
  describe: (input) => {
    const target = textField(input, 'path') || textField(input, 'name');
    return {
      ruleContents: target ? [target] : [],
      effects: [],
      findings: [],
      readOnly: false,
      summary: target ? `EnterWorktree ${target}` : 'EnterWorktree',
    };
  },
  isReadOnly: () => false,
  toAutoClassifierInput: (input) =>
    `enter git worktree ${textField(input, 'path') || textField(input, 'name')}`.trim(),
};

export const exitWorktreeDescriber: FullToolDescriberEntry = {
  name: 'ExitWorktree',
  describe: (input) => {
    const action = textField(input, 'action');
    return {
      ruleContents: action ? [action] : [],
      effects: [],
      findings: [],
      readOnly: false,
      summary: `ExitWorktree ${action}`.trim(),
    };
  },
  isReadOnly: () => false,
  toAutoClassifierInput: (input) =>
    `exit git worktree (${textField(input, 'action')}${input.discard_changes === true ? ', discard changes' : ''})`,
};
