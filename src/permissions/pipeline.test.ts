/**
 * Explanations carried by pipeline decisions and settings that disable modes. The decision table
 * for each step lives in pipeline-deny-checks, pipeline-modes-allow and pipeline-traits tests.
 */
import { describe, expect, it } from 'vitest';
import {
  bash,
  del,
  engineWith,
  finding,
  HOME,
  projectPath,
  request,
  ro,
  sub,
  write,
} from './test-support.js';

const P = projectPath;

describe('explanations', () => {
  it('a rule decision names the rule text, its file and line', () => {
    const engine = engineWith({ deny: [] });
    engine.settings.rules.add(
      // A rule as the loader makes it, with file and line.
      (() => {
        const e = engineWith({ deny: ['Bash(rm:*)'] });
        const r = e.settings.rules.list('deny')[0];
        if (!r) throw new Error('no rule');
        return {
          ...r,
          rule: {
            ...r.rule,
            file: '/home/user/project/.claude/settings.json',
            line: 7,
            source: 'projectSettings',
          },
        };
      })(),
    );
    const d = engine.decideSync(request('Bash', bash([sub('rm -rf build')], [del(P('build'))])));
    expect(d.decision.reason.message).toContain('Bash(rm:*)');
    expect(d.decision.reason.message).toContain('/home/user/project/.claude/settings.json:7');
    expect(d.decision.reason.rule?.line).toBe(7);
  });

  it('a check decision names the finding id and the sub-command', () => {
    const d = engineWith().decideSync(
      request('Bash', bash([sub('echo $(id)')], [], [finding('COMMAND_SUBSTITUTION', 'ask', 0)])),
    );
    expect(d.decision.reason.checkId).toBe('COMMAND_SUBSTITUTION');
    expect(d.decision.reason.message).toContain('echo $(id)');
  });

  it('a protected-path decision names the path and the effect', () => {
    const d = engineWith().decideSync(
      request('Bash', bash([sub('echo x')], [write(`${HOME}/.zshrc`, 0, '>> redirect')])),
    );
    expect(d.decision.reason.path).toBe(`${HOME}/.zshrc`);
    expect(d.decision.reason.message).toContain('>> redirect');
  });

  it('the trace lists the steps that looked at the call', () => {
    const d = engineWith().decideSync(request('Bash', bash([ro('ls')])));
    expect(d.trace.join('\n')).toMatch(/deny-rule: no deny rule matches[\s\S]*read-only: allow/);
  });
});

describe('settings that disable modes', () => {
  it('bypassPermissions disabled by settings falls back to default', () => {
    const engine = engineWith({ disableBypassPermissionsMode: true });
    const d = engine.decideSync(
      request('Bash', bash([sub('rm -rf x')], [del(P('x'))]), { mode: 'bypassPermissions' }),
    );
    expect(d.decision.behavior).toBe('ask');
    expect(d.mode).toBe('default');
  });
});
