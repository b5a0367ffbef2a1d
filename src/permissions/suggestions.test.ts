import { describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import { viewCall } from './call-view.js';
import { bashRuleFor, pathRuleFor, suggestRules } from './suggestions.js';
import { bash, fileCall, net, PROJECT, ro, sub, write } from './test-support.js';

describe('bashRuleFor (command arity)', () => {
  it.each([
    ['git checkout -b feature/x', 'git checkout:*', 'git takes its sub-command'],
    ['npm run dev --port 3000', 'npm run dev:*', 'npm run takes the script name'],
    ['npm install left-pad', 'npm install:*', 'npm takes its sub-command'],
    ['docker compose up -d', 'docker compose up:*', 'docker compose takes one more word'],
    ['python3 -m pytest tests/', 'python3 -m pytest:*', 'python -m names the module'],
    ['make test', 'make test:*', 'make target'],
    ['rm -rf build', 'rm:*', 'unknown program: the program alone'],
    ['gh pr create --fill', 'gh pr create:*', 'gh takes two more words'],
    ['git -C src log', 'git -C src log', 'a flag before the arity is reached: exact command'],
    ['node -e "x"', 'node -e "x"', 'inline code: exact command'],
  ])('%s → %s (%s)', (text, rule) => {
    expect(bashRuleFor(sub(text))).toBe(rule);
  });
});

describe('pathRuleFor', () => {
  it.each([
    ['Edit', `${PROJECT}/src/a/b.ts`, 'Edit(./src/a/**)', 'directory glob inside the project'],
    ['Edit', `${PROJECT}/README.md`, 'Edit(./README.md)', 'a file at the root: just the file'],
    ['Read', '/etc/hosts', 'Read(//etc/**)', 'outside the project: absolute // form'],
    ['Edit', `${PROJECT}/we[ird]/x`, 'Edit(./we\\[ird\\]/**)', 'glob characters escaped'],
  ] as const)('%s %s → %s (%s)', (access, p, rule, _why) => {
    expect(pathRuleFor(access, p, PROJECT)).toBe(rule);
  });
});

describe('suggestRules', () => {
  const view = (tool: string, d: ReturnType<typeof bash>) =>
    viewCall(tool, {}, d, { cwd: PROJECT, resolver: mapPathResolver({}) });
  it('one rule per sub-command that needed approval, read-only ones skipped, at most 5', () => {
    const subs = [
      ro('ls'),
      sub('npm run build'),
      sub('git push origin x'),
      ...['a', 'b', 'c', 'd', 'e'].map((p) => sub(`${p}prog x`)),
    ];
    const s = suggestRules(view('Bash', bash(subs)), PROJECT);
    expect(s.map((x) => x.rule)).toEqual([
      'Bash(npm run build:*)',
      'Bash(git push:*)',
      'Bash(aprog:*)',
      'Bash(bprog:*)',
      'Bash(cprog:*)',
    ]);
    expect(s.every((x) => x.destination === 'localSettings')).toBe(true);
  });

  it('a read-only command writing a file still gets a rule', () => {
    expect(
      suggestRules(view('Bash', bash([ro('echo hi')], [write(`${PROJECT}/n.txt`)])), PROJECT)[0]?.rule,
    ).toBe('Bash(echo:*)');
  });

  it('file tools get a path glob; WebFetch a domain; other tools their name', () => {
    expect(suggestRules(view('Write', fileCall('write', `${PROJECT}/src/x.ts`)), PROJECT)[0]?.rule).toBe(
      'Edit(./src/**)',
    );
    const wf = {
      ruleContents: ['domain:docs.example.com'],
      effects: [net('https://docs.example.com/a')],
      findings: [],
      readOnly: true,
      summary: '',
    };
    expect(suggestRules(view('WebFetch', wf), PROJECT)[0]?.rule).toBe('WebFetch(domain:docs.example.com)');
    expect(
      suggestRules(
        view('mcp__s__t', { ruleContents: [], effects: [], findings: [], readOnly: false, summary: '' }),
        PROJECT,
      )[0]?.rule,
    ).toBe('mcp__s__t');
  });
});
