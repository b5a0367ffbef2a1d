/**
 * A finding marked `everyMode` (the shell analysis stopped at its deadline or budget, so part of
 * the command was never looked at — docs/analysis-budget.md) asks in every mode: bypassPermissions,
 * acceptEdits, a PreToolUse hook's allow, sandbox auto-allow and the auto-mode classifier do not
 * lift it, and dontAsk turns it into a deny. A deny found in the part that was analysed still wins.
 */
import { describe, expect, it } from 'vitest';
import type { Finding, PermissionMode } from '../core/permission-types.js';
import { mapPathResolver } from '../core/paths.js';
import { runPipeline } from './pipeline.js';
import { RuleSet } from './rules/rule-set.js';
import { settingsFromRules } from './settings/from-rules.js';
import { bash, engineWith, HOME, PROJECT, request, ro, sub, write } from './test-support.js';
import { WorkingDirectories } from './working-dirs.js';

const stopped: Finding = {
  id: 'ANALYSIS_DEADLINE',
  message:
    'The analysis did not finish within 1000 ms; the part not analysed could do anything, so it cannot be proven safe.',
  behavior: 'ask',
  everyMode: true,
};
const call = bash([ro('ls')], [], [stopped]);

describe('every-mode findings', () => {
  const modes: [PermissionMode, 'ask' | 'deny', string][] = [
    ['default', 'ask', 'the ordinary ask'],
    ['acceptEdits', 'ask', 'acceptEdits does not allow what was not analysed'],
    ['bypassPermissions', 'ask', 'bypass skips the checks but not this one'],
    ['plan', 'deny', 'plan mode refuses first whatever is not proven read-only, before any prompt'],
    ['auto', 'ask', 'the classifier is not consulted'],
    ['dontAsk', 'deny', 'dontAsk turns the ask into a deny'],
  ];
  it.each(modes)('in %s mode: %s (%s)', (mode, expected) => {
    const d = engineWith({ allow: ['Bash(ls:*)'] }).decideSync(request('Bash', call, { mode }));
    expect(d.decision.behavior).toBe(expected);
    if (mode === 'plan') return;
    expect(d.step).toBe('check');
    expect(d.decision.reason.message).toContain('analysis did not finish within 1000 ms');
    expect(d.decision.reason.message).toContain('[ANALYSIS_DEADLINE]');
  });

  it('a PreToolUse hook that allows does not lift it', () => {
    const settings = settingsFromRules({ projectRoot: PROJECT, home: HOME });
    const r = runPipeline({
      request: request('Bash', call),
      rules: settings.rules,
      mode: 'default',
      workingDirs: new WorkingDirectories([PROJECT], mapPathResolver({})),
      home: HOME,
      resolver: mapPathResolver({}),
      sandboxAutoAllow: false,
      hook: { decision: 'allow', hook: 'approve-all', errors: [], additionalContext: [] },
    });
    expect(r.decision.behavior).toBe('ask');
  });

  it('sandbox auto-allow does not lift it', () => {
    const r = runPipeline({
      request: request('Bash', call),
      rules: new RuleSet(),
      mode: 'default',
      workingDirs: new WorkingDirectories([PROJECT], mapPathResolver({})),
      home: HOME,
      resolver: mapPathResolver({}),
      sandboxAutoAllow: true,
    });
    expect(r.decision.behavior).toBe('ask');
    expect(r.classifierEligible).toBe(false);
  });

  it('a deny rule or a protected write in the analysed part still denies', () => {
    const denied = bash([sub('rm -rf build')], [], [stopped]);
    expect(
      engineWith({ deny: ['Bash(rm:*)'] }).decideSync(request('Bash', denied, { mode: 'bypassPermissions' }))
        .decision.behavior,
    ).toBe('deny');
    const protectedWrite = bash([sub('echo x')], [write(`${HOME}/.bashrc`)], [stopped]);
    const d = engineWith().decideSync(request('Bash', protectedWrite, { mode: 'bypassPermissions' }));
    expect(d.decision.behavior).toBe('deny');
    expect(d.step).toBe('protected-path');
  });

  it('an ordinary ask finding is still skipped in bypassPermissions (unchanged)', () => {
    const plain = bash([sub('ls')], [], [{ id: 'UNPARSEABLE_COMMAND', message: 'x', behavior: 'ask' }]);
    expect(
      engineWith().decideSync(request('Bash', plain, { mode: 'bypassPermissions' })).decision.behavior,
    ).toBe('allow');
  });
});
