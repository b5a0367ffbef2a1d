/**
 * Replay suggestions: which asks may get a rule, how destructive and arbitrary-code programs are
 * narrowed, the greedy ranking, verification by a second replay, and a run over the shared real
 * transcripts through `gantry replay --suggest`.
 */
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../testing/shared-data.js';
import { runReplay } from './cli.js';
import type { ReplayRow } from './replay.js';
import { isEligibleAsk, safeRuleFor, suggestRules, verifySuggestions } from './suggest.js';

function row(p: Partial<ReplayRow> & { command?: string }): ReplayRow {
  return {
    call: {
      file: 'f',
      line: 1,
      tool: 'Bash',
      input: {},
      cwd: '/p',
      outcome: 'executed',
    } as unknown as ReplayRow['call'],
    toolName: 'Bash',
    summary: p.command ?? '',
    decision: 'ask',
    reason: '',
    mode: 'default',
    readOnly: false,
    projectRoot: '/p',
    cwd: '/p',
    input: { command: p.command ?? '' },
    reasonType: 'default',
    ...p,
  };
}

describe('isEligibleAsk', () => {
  it.each([
    ['no rule matched a non-read-only call', row({ reasonType: 'default' }), true],
    [
      'a read-only call outside the working directories',
      row({ reasonType: 'working-directory', readOnly: true }),
      true,
    ],
    ['a write outside the working directories', row({ reasonType: 'working-directory' }), false],
    ['a security check fired', row({ reasonType: 'check' }), false],
    ['a protected path', row({ reasonType: 'protected-path' }), false],
    ['an unknown effect', row({ reasonType: 'unknown-effect' }), false],
    ['an allow is not an ask', row({ decision: 'allow' }), false],
  ])('%s → %s', (_why, r, eligible) => {
    expect(isEligibleAsk(r)).toBe(eligible);
  });
});

describe('safeRuleFor', () => {
  it.each([
    ['a harmless prefix rule stays', 'npm run build', 'Bash(npm run build:*)', 'Bash(npm run build:*)'],
    ['rm never gets a prefix rule: the exact command', 'rm -rf dist', 'Bash(rm:*)', 'Bash(rm -rf dist)'],
    ['git push is exact too', 'git push origin main', 'Bash(git push:*)', 'Bash(git push origin main)'],
    ['ssh runs anything remotely: exact', 'ssh host uptime', 'Bash(ssh:*)', 'Bash(ssh host uptime)'],
    ['a multi-line destructive command gets nothing', 'rm a\nrm b', 'Bash(rm:*)', undefined],
    ['a long destructive command gets nothing', `rm ${'x'.repeat(200)}`, 'Bash(rm:*)', undefined],
    ['a glob inside the command cannot be written exactly', 'rm *.log', 'Bash(rm:*)', undefined],
    ['a known tool stays bare', '', 'WebSearch', 'WebSearch'],
    ['an MCP tool stays bare', '', 'mcp__gh__list_issues', 'mcp__gh__list_issues'],
    ['an unknown tool is never allowed whole', '', 'execute_bash', undefined],
    ['a path rule stays', '', 'Edit(./src/**)', 'Edit(./src/**)'],
  ])('%s', (_why, command, suggestion, expected) => {
    expect(safeRuleFor(row({ command }), suggestion)).toBe(expected);
  });
});

describe('suggestRules', () => {
  it('ranks identical suggestions by the prompts they remove and skips single prefix rules', () => {
    const rows = [
      ...Array.from({ length: 3 }, () => row({ command: 'npm test', suggestions: ['Bash(npm test:*)'] })),
      ...Array.from({ length: 2 }, () => row({ command: 'make', suggestions: ['Bash(make:*)'] })),
      row({ command: 'cargo build', suggestions: ['Bash(cargo build:*)'] }),
      row({ command: 'rm -rf out', suggestions: ['Bash(rm:*)'] }),
      row({ command: 'eval $X', reasonType: 'check', suggestions: ['Bash(eval:*)'] }),
      row({ command: 'a && b', suggestions: ['Bash(a:*)', 'Bash(b:*)'] }),
    ];
    const s = suggestRules(rows);
    expect(s.asks).toBe(9);
    expect(s.eligible).toBe(8);
    expect(s.rules.map((r) => [r.rule, r.removes])).toEqual([
      ['Bash(npm test:*)', 3],
      ['Bash(make:*)', 2],
      ['Bash(rm -rf out)', 1],
    ]);
    expect(s.rules[0]?.share).toBeCloseTo(3 / 9);
  });
});

describe('verifySuggestions', () => {
  it('drops a rule under which a non-candidate call changed its answer', () => {
    const s = suggestRules([row({ command: 'x', suggestions: ['Bash(x)'] })]);
    const before = [row({ command: 'x' }), row({ command: 'risky', reasonType: 'check' })];
    const after = [
      row({ command: 'x', decision: 'allow', ruleText: 'Bash(x)' }),
      row({ command: 'risky', decision: 'allow', ruleText: 'Bash(x)' }),
    ];
    const v = verifySuggestions(s, before, after, (r) => r.ruleText);
    expect(v.rules).toEqual([]);
    expect(v.dropped[0]?.rule).toBe('Bash(x)');
    expect(v.asksAfter).toBe(0);
  });
});

const shared = sharedDir();
describe.skipIf(!shared)('gantry replay --suggest on the shared real transcripts', () => {
  it('suggests only narrow rules, verified to remove prompts', async () => {
    let text = '';
    const code = await runReplay([`${shared}/data/real`], {
      suggest: true,
      out: (l) => {
        text += `${l}\n`;
      },
      err: () => undefined,
    });
    expect(code).toBe(0);
    const json = JSON.parse(text.slice(text.indexOf('{'))) as { permissions: { allow: string[] } };
    const rules = json.permissions.allow;
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules)
      expect(r).not.toMatch(/^Bash\((rm|ssh|curl|sudo|bash|sh|git push|powershell(\.exe)?):\*\)$/);
    const m = /asks (\d+) → (\d+)/.exec(text);
    expect(m).not.toBeNull();
    expect(Number(m?.[2])).toBeLessThan(Number(m?.[1]));
  }, 240_000);
});
