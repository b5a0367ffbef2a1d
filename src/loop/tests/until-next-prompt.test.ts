/**
 * Temporary rules and the model override until the next prompt (loop/until-next-prompt.ts), with
 * the real permission engine: granted rules are in force until `clear()`, then gone; deny rules
 * always apply; whole-shell allow rules and a project skill's allow rules in an untrusted folder
 * are refused with their reason.
 */
import { describe, expect, it } from 'vitest';
import { createPermissionEngine } from '../../permissions/engine.js';
import { settingsFromRules } from '../../permissions/settings/from-rules.js';
import { UntilNextPrompt } from '../until-next-prompt.js';

function setup(trusted = true) {
  const settings = settingsFromRules({ projectRoot: '/p', home: '/h', deny: ['Bash(rm:*)'] });
  const engine = createPermissionEngine({
    settings: { ...settings, trust: { trusted, reason: trusted ? 'test' : 'not listed as trusted' } },
  });
  let model = 'claude-sonnet-4-5';
  const controls = new UntilNextPrompt(engine, { get: () => model, set: (m) => void (model = m) });
  const allowTexts = () => engine.settings.rules.list('allow').map((r) => r.rule.text ?? '');
  return { engine, controls, allowTexts, model: () => model };
}

describe('UntilNextPrompt', () => {
  it('grants rules and a model until clear(), then takes them back', () => {
    const { engine, controls, allowTexts, model } = setup();
    const r = controls.addRules({
      allow: ['Bash(npm test:*)'],
      deny: ['WebFetch'],
      label: 'skill t',
      origin: 'user',
    });
    expect(r).toEqual({ granted: ['WebFetch', 'Bash(npm test:*)'], refused: [] });
    controls.overrideModel('claude-haiku-4-5');
    expect(allowTexts()).toContain('Bash(npm test:*)');
    expect(engine.isToolDenied('WebFetch')).toBeDefined();
    expect(model()).toBe('claude-haiku-4-5');
    controls.clear();
    expect(allowTexts()).not.toContain('Bash(npm test:*)');
    expect(engine.isToolDenied('WebFetch')).toBeUndefined();
    expect(engine.settings.rules.list('deny').map((x) => x.rule.text)).toEqual(['Bash(rm:*)']);
    expect(model()).toBe('claude-sonnet-4-5');
  });

  it.each([
    ['Bash', 'user', true, /every shell command/, 'a bare shell tool'],
    ['Bash(*)', 'user', true, /every shell command/, 'a shell wildcard'],
    [
      'Bash(npm test:*)',
      'project',
      false,
      /trusted folder \(not listed as trusted\)/,
      'a project skill, untrusted folder',
    ],
  ] as const)(
    'refuses allow %s from a %s skill (trusted: %s) with %s (%s)',
    (rule, origin, trusted, reason, _why) => {
      const { controls, allowTexts } = setup(trusted);
      const r = controls.addRules({ allow: [rule], deny: [], label: 'skill t', origin });
      expect(r.granted).toEqual([]);
      expect(r.refused[0]?.reason).toMatch(reason);
      expect(allowTexts()).not.toContain(rule);
    },
  );

  it('a project skill in an untrusted folder still gets its deny rules', () => {
    const { engine, controls } = setup(false);
    const r = controls.addRules({ allow: [], deny: ['WebSearch'], label: 'skill t', origin: 'project' });
    expect(r.granted).toEqual(['WebSearch']);
    expect(engine.isToolDenied('WebSearch')).toBeDefined();
  });
});
