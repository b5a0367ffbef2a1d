/**
 * The analysis budget (budget.ts, docs/analysis-budget.md): no input stalls an analysis, work cut
 * short fails closed with an every-mode ask, and what was analysed before the cut still counts.
 * Every case here took seconds to minutes before the budget (the slow parse of tree-sitter's error
 * recovery, quadratic passes); the assertions are about what the analysis says, never its timing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import { WORST_CASE_GENERATORS } from '../testing/worst-case-commands.js';
import { analyzeCommand } from './analyze.js';
import {
  AnalysisBudget,
  MAX_BRACE_EXPANSION_CHARS,
  MAX_REPARSED_CHARS,
  normalizeDeadlineMs,
  PARSE_BUDGET,
  withBudget,
} from './budget.js';
import { initShellParser, MAX_PARSE_INPUT_CHARS } from './index.js';
import { parseBashTolerant } from './parse-mask.js';
import { longPipelineAt, parseBash } from './parser.js';
import { MAX_SUBSTITUTION_CHARS, parseAndSplit } from './split.js';
import { expandBraceText, MAX_BRACE_WORDS } from './brace-expand.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = { cwd: '/home/u/p', home: '/home/u', resolver: mapPathResolver({}) };
const CAP = MAX_PARSE_INPUT_CHARS - 600;
const build = (name: string, chars = CAP): string => {
  const g = WORST_CASE_GENERATORS.find((x) => x.name === name);
  if (!g) throw new Error(`no generator ${name}`);
  return g.build(chars);
};
const stopFinding = (command: string, o = opts) =>
  analyzeCommand(command, o).findings.find((f) => f.id === 'ANALYSIS_BUDGET' || f.id === 'ANALYSIS_DEADLINE');

describe('tree-sitter error recovery is cut by the work budget', () => {
  // The inputs of the reliability review, just under the 64 KiB cap (each took 5–106 s unbounded).
  const SLOW: [string, string][] = [
    ['pipe-amp-run', 'ls + |& repeated (19 s at 16k repeats)'],
    ['extglob', 'valid extglob padding after a denied write (125 s)'],
    ['extglob-negated', '!(x)- repeated (65 s)'],
    ['redirect-run', '> repeated (17 s)'],
    ['nul-run', 'NUL characters (106 s)'],
    ['array-subshells', 'a=( then (x) repeated (31 s)'],
    ['heredoc-run', '<<E and a newline repeated'],
    ['pipe-run', '| repeated'],
  ];
  it.each(SLOW)('%s: the parse is cut, the same way every time (%s)', (name) => {
    const command = build(name);
    const a = parseBash(command);
    const b = parseBash(command);
    expect(a.cut?.reason).toMatch(
      // (runs of `|&` and `|` are now cut before the parser: control operators in a row)
      /the parser gave up after reading \d+ of \d+ characters|a pipeline of more than|control operators in a row/,
    );
    expect(a.hasError).toBe(true);
    expect(b.cut).toEqual(a.cut);
    expect(b.nodeCount).toBe(a.nodeCount);
  });

  it.each(SLOW)('%s: the analysis asks in every mode', (name) => {
    const f = stopFinding(build(name));
    expect(f).toMatchObject({ id: 'ANALYSIS_BUDGET', behavior: 'ask', everyMode: true });
    expect(f?.message).toContain('the part not analysed could do anything');
  });

  it('keeps what it read before the cut: the denied write in front of the extglob padding still shows', () => {
    const a = analyzeCommand(build('extglob'), opts);
    expect(a.parseOk).toBe(false);
    expect(a.readOnly).toBe(false);
    expect(a.subcommands.map((s) => s.text)).toContain('echo pwned');
    expect(a.effects).toContainEqual(
      expect.objectContaining({
        kind: 'write',
        target: '/home/u/.bashrc',
        certainty: 'known',
        source: 'redirect',
      }),
    );
  });

  it('valid bash is never cut by the read budget: up to 4 KiB not at all, at the cap only by the node or progress cap', () => {
    for (const name of [
      'chain-and',
      'chain-lines',
      'heredocs',
      'heredoc-body',
      'long-word',
      'nest-subshell',
      'case-arms',
    ]) {
      const p = parseBash(build(name, 4096));
      expect({ name, cut: p.cut, error: p.hasError }).toEqual({ name, cut: undefined, error: false });
      // at the size cap, the caps of budget-caps.test.ts apply (valid bash of this size is rare)
      const big = parseBash(build(name));
      if (big.cut) expect(big.cut.reason, name).toMatch(/syntax nodes|progress reports/);
      else expect(big.hasError, name).toBe(false);
    }
  });
});

describe('the deadline', () => {
  it('stops the work and asks in every mode with the deadline in the reason', () => {
    const a = analyzeCommand('ls -la && cat README.md', { ...opts, deadlineMs: 0 });
    expect(a.findings).toContainEqual({
      id: 'ANALYSIS_DEADLINE',
      message: expect.stringContaining('analysis did not finish within 0 ms'),
      behavior: 'ask',
      everyMode: true,
    });
    expect(a.parseOk).toBe(false);
    expect(a.readOnly).toBe(false);
    expect(a.problems.join(' ')).toContain('deadline');
  });

  it('a normal command finishes well within the default deadline', () => {
    const a = analyzeCommand('ls -la && cat README.md', opts);
    expect(a.findings).toEqual([]);
    expect(a.readOnly).toBe(true);
  });

  it('user-supplied deadlines are clamped and malformed ones fall back to the default', () => {
    expect(normalizeDeadlineMs(250)).toBe(250);
    expect(normalizeDeadlineMs('2000')).toBe(2000);
    expect(normalizeDeadlineMs(1)).toBe(10);
    expect(normalizeDeadlineMs(10 ** 9)).toBe(120_000);
    expect(normalizeDeadlineMs('soon')).toBe(1000);
    expect(normalizeDeadlineMs(Number.NaN)).toBe(1000);
  });
});

describe('caps on Gantry’s own passes fail closed', () => {
  it('a pipeline longer than the stage cap is parsed only up to the cap', () => {
    const command = `cat f${' | grep -v x'.repeat(PARSE_BUDGET.maxPipelineStages + 50)}`;
    const at = longPipelineAt(command, PARSE_BUDGET.maxPipelineStages);
    expect(at).toBeGreaterThan(0);
    const p = parseBash(command);
    expect(p.cut?.reason).toContain(`a pipeline of more than ${PARSE_BUDGET.maxPipelineStages} stages`);
    expect(stopFinding(command)?.everyMode).toBe(true);
    // pipes in quotes or in separate pipelines do not add up
    expect(longPipelineAt(`echo '${'|'.repeat(500)}'`, 128)).toBe(-1);
    expect(longPipelineAt('a | b; '.repeat(500), 128)).toBe(-1);
    expect(longPipelineAt('a | b && '.repeat(500), 128)).toBe(-1);
  });

  it('${…} nested deeper than the cap is parsed only up to the cap; shallow nesting is parsed in full', () => {
    const deep = `echo ${'${x:-'.repeat(PARSE_BUDGET.maxExpansionDepth + 10)}y`;
    expect(parseBash(deep).cut?.reason).toContain(
      `nested more than ${PARSE_BUDGET.maxExpansionDepth} levels deep`,
    );
    expect(stopFinding(deep)?.everyMode).toBe(true);
    expect(parseBash('echo "${a:-${b:-${c}}}" | grep "${d}"').cut).toBeUndefined();
  });

  it('a brace expansion stops at its character cap: a long word of many groups is not expanded', () => {
    // 256 words of 8 KiB each: under the word cap, megabytes of results
    const pad = 'p'.repeat(8192);
    expect(expandBraceText(`${pad}${'{a,b}'.repeat(8)}`)).toBeUndefined();
    // a word of many groups at the size cap: refused (the command asks), not 2^13000 words built
    const word = '{a,b}'.repeat(Math.floor(CAP / 5) - 2);
    expect(expandBraceText(word)).toBeUndefined();
    const a = analyzeCommand(`touch ${word}`, opts);
    const unparsed = a.findings.find((f) => f.id === 'UNPARSEABLE_COMMAND');
    expect(unparsed?.message).toContain(`produces more words than are analysed (over ${MAX_BRACE_WORDS}`);
    expect(unparsed?.behavior).toBe('ask');
    expect(a.readOnly).toBe(false);
    // results over the cap are refused, never returned short (the library drops the ones past its
    // length limit without saying so: `…i` would have been missing)
    expect(expandBraceText(`${'p'.repeat(30_000)}{a,b,c,d,e,f,g,h,i}`)).toBeUndefined();
    // nesting deeper than the cap is refused too (the expander would leave it literal)
    expect(expandBraceText(`${'{'.repeat(3000)}a,b${'}'.repeat(3000)}`)).toBeUndefined();
    // short expansions, and few groups on a long word, are enumerated as before
    expect(expandBraceText('cp f{,.bak}')).toEqual(['cp f', 'cp f.bak']);
    expect(expandBraceText('/tmp/{a,b}{c,d}')).toEqual(['/tmp/ac', '/tmp/ad', '/tmp/bc', '/tmp/bd']);
    expect(expandBraceText(`${'p'.repeat(MAX_BRACE_EXPANSION_CHARS / 8)}{a,b}{c,d}`)).toHaveLength(4);
  });

  it('deep substitution nesting stops at the body work cap (300 short levels still split in full)', () => {
    // 6 KiB: over the body cap (the levels' words add up to ~2.3 million characters), under the
    // node and progress caps of the parse
    const deep = build('nest-substitution', 6144);
    const s = parseAndSplit(deep);
    expect(s.ok).toBe(false);
    expect(s.problems.join(' ')).toContain(`more than ${MAX_SUBSTITUTION_CHARS} characters`);
    let shallow = 'id';
    for (let i = 0; i < 300; i++) shallow = `echo $(${shallow})`;
    expect(parseAndSplit(shallow).commands).toHaveLength(301);
  });

  it('nested scripts are parsed once per text, and their total size is capped', () => {
    const budget = new AnalysisBudget(60_000);
    const script = 'echo hi && ls';
    withBudget(budget, () => {
      parseBashTolerant(`sh -c '${script}'`);
      for (let i = 0; i < 100; i++) parseBashTolerant(script);
    });
    expect(budget.parsedChars).toBe(`sh -c '${script}'`.length + script.length);
    const big = new AnalysisBudget(60_000);
    const chunk = 'x'.repeat(60_000);
    const results = withBudget(big, () => [0, 1, 2, 3, 4, 5].map((i) => parseBashTolerant(`${chunk}${i}`)));
    expect(results.some((r) => r.cut?.reason.includes(`more than ${MAX_REPARSED_CHARS} characters`))).toBe(
      true,
    );
    expect(big.stop?.kind).toBe('reparse');
  });

  it('a line that names more paths than the resolver cap asks, and the paths it did resolve stay', () => {
    const command = `touch ${Array.from({ length: 1500 }, (_, i) => `f${i}`).join(' ')}`;
    const a = analyzeCommand(command, opts);
    const f = a.findings.find((x) => x.id === 'ANALYSIS_BUDGET');
    expect(f?.message).toContain('paths to resolve');
    expect(f?.everyMode).toBe(true);
    expect(a.effects.some((e) => e.kind === 'write' && e.target === '/home/u/p/f0')).toBe(true);
  });

  it('a cd chain that outgrows PATH_MAX makes the cwd unknown instead of tracking ever longer paths', () => {
    const a = analyzeCommand(`${`cd ${'d'.repeat(100)} && `.repeat(60)}rm -f x`, opts);
    const rm = a.effects.find((e) => e.kind === 'delete');
    expect(rm?.certainty).toBe('unknown');
  });
});
