import { describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import type { CommandAnalysis } from '../../shell/types.js';
import { engineWith, request, ro } from '../test-support.js';
import { descriptionFromAnalysis, loadBashDescriber } from './shell-describer.js';

describe('descriptionFromAnalysis', () => {
  const analysis = (parseOk: boolean): CommandAnalysis => ({
    command: 'ls (',
    parseOk,
    problems: parseOk ? [] : ['ERROR node'],
    subcommands: [ro('ls')],
    findings: [],
    effects: [],
    readOnly: parseOk,
  });

  it('an analysis that did not parse always carries an ask-level finding (fail closed)', () => {
    const d = descriptionFromAnalysis(analysis(false));
    expect(d.findings.map((f) => f.id)).toEqual(['UNPARSEABLE_COMMAND']);
    expect(d.readOnly).toBe(false);
    expect(engineWith().decideSync(request('Bash', d)).decision.behavior).toBe('ask');
  });

  it('a parsed analysis maps one to one', () => {
    const d = descriptionFromAnalysis(analysis(true));
    expect(d).toMatchObject({ ruleContents: ['ls'], findings: [], readOnly: true });
  });
});

describe('loadBashDescriber (real shell analysis)', () => {
  it.each([
    ['ls -la', 'allow', 'read-only'],
    ['rm -rf build', 'ask', 'not read-only, no rule'],
    ['echo x >> ~/.bashrc', 'deny', 'protected write through a redirect'],
    ['echo "$(id)"', 'ask', 'command substitution'],
  ])('%s → %s (%s)', async (command, expected, _why) => {
    const describe = await loadBashDescriber();
    const d = describe(command, {
      cwd: '/home/user/project',
      home: '/home/user',
      resolver: mapPathResolver({}),
    });
    expect(engineWith().decideSync(request('Bash', d)).decision.behavior).toBe(expected);
  });
});
