/**
 * The work caps of one parse on valid bash (budget.ts `PARSE_BUDGET.maxProgressReports` and
 * `maxNodes`, parser.ts, docs/analysis-budget.md): a long valid command is analysed only up to a
 * prefix, the same way every time, and asks in every mode naming the cap; what the prefix holds
 * (a denied write at the start) still counts. Real commands stay far below both caps.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import { realBashCorpora } from '../testing/real-commands.js';
import { WORST_CASE_GENERATORS } from '../testing/worst-case-commands.js';
import { analyzeCommand, analyzeWithBudget } from './analyze.js';
import { AnalysisBudget, MAX_NESTED_PARSES, PARSE_BUDGET } from './budget.js';
import { initShellParser } from './index.js';
import { operatorRunAt, statementBoundaryBefore } from './parse-prefix.js';
import { parseBash } from './parser.js';
import { createTreeCopier, type TreeCopier } from './parser-copy.js';
import { treeShape } from './testing-helpers.js';

let bare: Parser;
let bareCopier: TreeCopier;

beforeAll(async () => {
  await initShellParser();
  const require = createRequire(import.meta.url);
  const moduleObject: Record<string, unknown> = {
    locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm'),
  };
  await Parser.init(moduleObject);
  const language = await Language.load(
    readFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')),
  );
  bare = new Parser();
  bare.setLanguage(language);
  bareCopier = createTreeCopier(language, moduleObject);
});
afterAll(() => bare?.delete());

const opts = { cwd: '/home/u/p', home: '/home/u', resolver: mapPathResolver({}) };
const build = (name: string, chars = 65_000): string => {
  const g = WORST_CASE_GENERATORS.find((x) => x.name === name);
  if (!g) throw new Error(`no generator ${name}`);
  return g.build(chars);
};
const budgetFinding = (command: string) =>
  analyzeCommand(command, opts).findings.find((f) => f.id === 'ANALYSIS_BUDGET');
const HEAD = 'echo pwned >> ~/.bashrc; ';
/** The keys of a tree compared between two parses. */
const TREE_KEYS = ['type', 'start', 'end', 'field', 'children'];
const bashrcWrite = expect.objectContaining({ kind: 'write', target: '/home/u/.bashrc', certainty: 'known' });

describe('the node cap', () => {
  // `ls a; ` is five nodes: enough of them pass the node cap long before the progress cap
  const padded = `${HEAD}${'ls a; '.repeat(2000)}rm -rf /`;

  it('cuts a long valid line to a prefix that ends before a statement separator', () => {
    const p = parseBash(padded);
    // (the progress cap stops the reads at about as many nodes: the node cap cuts what tree-sitter
    // finished after it)
    expect(p.cut?.reason).toContain(`more than ${PARSE_BUDGET.maxNodes} syntax nodes`);
    expect(p.nodeCount).toBeLessThanOrEqual(PARSE_BUDGET.maxNodes);
    expect(p.nodeCount).toBeGreaterThan(PARSE_BUDGET.maxNodes / 2);
    const kept = p.cut?.readChars ?? 0;
    expect(padded[kept]).toBe(';');
    expect(p.root.end).toBeLessThanOrEqual(kept);
  });

  it('asks in every mode naming the cap, and the write in the prefix still shows', () => {
    const a = analyzeCommand(padded, opts);
    const f = a.findings.find((x) => x.id === 'ANALYSIS_BUDGET');
    expect(f).toMatchObject({ behavior: 'ask', everyMode: true });
    expect(f?.message).toContain('syntax nodes (the node cap of one parse)');
    expect(a.readOnly).toBe(false);
    expect(a.parseOk).toBe(false);
    expect(a.subcommands[0]?.text).toBe('echo pwned');
    expect(a.effects).toContainEqual(bashrcWrite);
    // the tail was not analysed: the last command is not among the sub-commands
    expect(a.subcommands.some((s) => s.program === 'rm')).toBe(false);
  });

  it('one statement past the cap is cut before node maxNodes; one the copy cannot cut down is kept whole up to twice the cap', () => {
    // `>o` is three nodes: one `echo` of 1.25 times the cap
    const redirects = `echo x ${'>o'.repeat(Math.ceil((1.25 * PARSE_BUDGET.maxNodes) / 3))}`;
    const command = parseBash(redirects);
    expect(command.cut?.reason).toContain('syntax nodes');
    expect(command.nodeCount).toBeLessThanOrEqual(PARSE_BUDGET.maxNodes);
    expect(command.nodeCount).toBeGreaterThan(PARSE_BUDGET.maxNodes - 10);
    // the same inside a group (prefix-copy.ts cuts down no group): kept whole
    const group = parseBash(`{ ${redirects}; }`);
    expect(group.nodeCount).toBeGreaterThan(PARSE_BUDGET.maxNodes);
    expect(group.nodeCount).toBeLessThanOrEqual(2 * PARSE_BUDGET.maxNodes);
    expect(group.cut?.reason ?? '').not.toContain('syntax nodes');
    expect(group.root.end).toBe(group.source.length);
  });

  it('is deterministic: the same cut and the same analysis twice', () => {
    expect(parseBash(padded).cut).toEqual(parseBash(padded).cut);
    expect(JSON.stringify(analyzeCommand(padded, opts))).toBe(JSON.stringify(analyzeCommand(padded, opts)));
  });

  const asPrefix = (command: string, label: string): void => {
    const p = parseBash(command);
    expect(p.cut?.reason, label).toContain('syntax nodes');
    expect(p.nodeCount, label).toBeLessThanOrEqual(PARSE_BUDGET.maxNodes);
    // a parse of the prefix alone, without the caps (it may take more progress reports than the
    // cut parse did before its cap)
    const alone = bare.parse(command.slice(0, p.cut?.readChars));
    if (!alone) throw new Error('tree-sitter gave no tree');
    try {
      expect(treeShape(bareCopier.copy(alone, 'portable').root), label).toEqual(treeShape(p.root));
    } finally {
      alone.delete();
    }
    // the portable copy (the public cursor API) cuts the same prefix
    expect(JSON.stringify(parseBash(command, 'portable').root, TREE_KEYS), label).toBe(
      JSON.stringify(p.root, TREE_KEYS),
    );
  };

  it('the prefix (copied from the first tree, or re-parsed) is the tree a parse of the prefix alone gives', () => {
    // copied (prefix-copy.ts): statements, a chain, one command, redirections; re-parsed: the
    // boundary falls inside a `case`, an `if`, a `for` or a heredoc body
    for (const name of [
      'chain-lines',
      'chain-and',
      'secret-tests',
      'heredocs',
      'many-redirects',
      'process-substitution',
      'functions',
      'sh-c',
      'eval',
      'cd-chain',
      'parameter-substitutions',
      'mid-word-hash',
      'case-arms',
      'nest-if',
      'for-loops',
      'heredoc-body',
    ])
      asPrefix(build(name), name);
  });

  it('a chain of pipelines is cut inside a pipeline or at an operator, as a parse of the prefix alone', () => {
    // the padding moves node `maxNodes` across the stages, the redirections and the operators
    for (let pad = 0; pad < 12; pad++) {
      const unit = 'ls a | grep -v b >o 2>&1 | wc -l && cat f || ';
      const line = `: ${'x'.repeat(pad)}; ${unit.repeat(Math.ceil((2 * PARSE_BUDGET.maxNodes) / 18))}true`;
      asPrefix(line, `pad ${pad}`);
    }
  });

  it('one statement past twice the cap: the prefix of its words still holds what it does', () => {
    const a = analyzeCommand(`rm -rf ~ ${'a '.repeat(2 * PARSE_BUDGET.maxNodes + 100)}`, opts);
    expect(a.findings.find((x) => x.id === 'ANALYSIS_BUDGET')?.everyMode).toBe(true);
    expect(a.subcommands[0]?.program).toBe('rm');
    expect(a.effects.some((e) => e.kind === 'delete' && e.target === '/home/u')).toBe(true);
  });
});

describe('the progress cap', () => {
  it('a long $((…)) is stopped in the parse; the analysis asks in every mode naming the cap', () => {
    const command = build('arithmetic');
    const p = parseBash(command);
    expect(p.cut?.reason).toMatch(
      new RegExp(`^more than ${PARSE_BUDGET.maxProgressReports} progress reports of tree-sitter`),
    );
    expect(parseBash(command).cut).toEqual(p.cut);
    const f = budgetFinding(command);
    expect(f).toMatchObject({ behavior: 'ask', everyMode: true });
    expect(f?.message).toContain('progress reports');
  });

  it('a padded line: the parse stops at its cap, and the write in the prefix still shows', () => {
    const command = `${HEAD}${build('functions', 64_000)}`;
    const budget = new AnalysisBudget(60_000);
    const a = analyzeWithBudget(command, opts, budget);
    const f = a.findings.find((x) => x.id === 'ANALYSIS_BUDGET');
    expect(f?.everyMode).toBe(true);
    expect(f?.message).toContain(`more than ${PARSE_BUDGET.maxProgressReports} progress reports`);
    expect(budget.peakProgressReports).toBe(PARSE_BUDGET.maxProgressReports + 1);
    expect(a.effects).toContainEqual(bashrcWrite);
  });
});

describe('a long run of control operators (parse-prefix.ts operatorRunAt)', () => {
  // the mutated tldr command that was the slowest of bench/shell-worst's mutated set
  const run = `pio system prune --dry-r${'&&'.repeat(15_000)}un`;

  it('is a syntax error in bash (valid bash has at most four such characters in a row)', () => {
    for (const line of [run, `ls ${'; '.repeat(20)}`, `ls${' ||'.repeat(20)} x`])
      expect(spawnSync('bash', ['-n', '-c', line], { stdio: 'ignore' }).status).not.toBe(0);
  });

  it('is not handed to the parser: the line asks in every mode naming the run', () => {
    const p = parseBash(run);
    expect(p.cut?.reason).toMatch(/^16 or more control operators in a row/);
    expect(p.cut?.readChars).toBe('pio system prune --dry-r'.length);
    const f = budgetFinding(run);
    expect(f).toMatchObject({ behavior: 'ask', everyMode: true });
  });

  it('the write before the run still shows', () => {
    const a = analyzeCommand(`${HEAD}${'&&'.repeat(2000)}`, opts);
    expect(a.findings.find((x) => x.id === 'ANALYSIS_BUDGET')?.everyMode).toBe(true);
    expect(a.effects).toContainEqual(bashrcWrite);
  });

  const notRuns: [string, string][] = [
    [`echo '${'&'.repeat(40)}'`, 'single quotes'],
    [`echo "${'|'.repeat(40)}"`, 'double quotes'],
    [`echo $'${';'.repeat(40)}'`, "$'…'"],
    [`ls # ${'&&'.repeat(20)}\nls`, 'a comment'],
    [`cat <<E\n${'&&'.repeat(20)}\nE`, 'a heredoc body (the scan gives up on heredocs)'],
    [`echo \${x//${'&'.repeat(40)}/y}`, 'a ${…} pattern'],
    [`echo $(( 1 ${'|'.repeat(2)} 2 ))${' '.repeat(3)}`, 'arithmetic'],
  ];
  it.each(notRuns)('%j is not cut (%s)', (line) => {
    expect(operatorRunAt(line, PARSE_BUDGET.maxOperatorRun)).toBe(-1);
  });
  it('case terminators are no run', () => {
    const line = 'case x in a) ls;; b) ls;& c) ls;;& esac';
    expect(spawnSync('bash', ['-n', '-c', line], { stdio: 'ignore' }).status).toBe(0);
    expect(operatorRunAt(line, PARSE_BUDGET.maxOperatorRun)).toBe(-1);
  });
});

describe('a long run of braces', () => {
  // mutated tldr commands, the slowest of bench/shell-worst's mutated set after the && runs
  const close = `ppmtoicr -e factor images${'}'.repeat(19_000)}/main.ppm > files/report.icr`;
  const open = `pyenv virtualen${'{'.repeat(15_000)}vs`;

  it.each([close, open])('is not handed to the parser; the line asks in every mode (%#)', (line) => {
    const p = parseBash(line);
    expect(p.cut?.reason).toMatch(new RegExp(`^a run of more than ${PARSE_BUDGET.maxBraceRun} braces`));
    expect(budgetFinding(line)).toMatchObject({ behavior: 'ask', everyMode: true });
  });

  it('the write before the run still shows; a few braces are no run', () => {
    const a = analyzeCommand(`${HEAD}echo a${'}'.repeat(100)}`, opts);
    expect(a.effects).toContainEqual(bashrcWrite);
    expect(parseBash(`echo '{"a":{"b":{"c":{}}}}' {a,b}{c,d}`).cut).toBeUndefined();
  });
});

describe('statement boundaries (parse-prefix.ts)', () => {
  const rows: [string, number, number, string][] = [
    ['ls a; ls b', 10, 4, 'the last `;` before the limit'],
    ['ls a && ls b && ls c', 20, 13, 'an `&&` counts once, at its first character'],
    ["echo 'a; b' c", 13, -1, 'a `;` inside single quotes is not a boundary'],
    ['echo "a; \\" b"; x', 17, 14, 'double quotes with an escaped quote inside'],
    ['f() { ls; }; g', 14, 11, 'inside braces is not the top level'],
    ['echo $(a; b) | c', 16, 13, 'inside a substitution is not the top level'],
    ['ls 2>&1 >| f', 12, -1, '`>&` and `>|` are redirections'],
    ['# a; b\nls', 9, 6, 'a comment is skipped up to its newline'],
    ['echo a#b; c', 11, 8, 'a `#` inside a word is not a comment'],
    ['; ls', 4, -1, 'nothing but blanks before it'],
  ];
  it.each(rows)('%j before %d → %d (%s)', (text, limit, expected) => {
    expect(statementBoundaryBefore(text, limit)).toBe(expected);
  });
});

/** The Bash commands of the real corpora (tldr, NL2Bash, agent sessions), or [] when ../shared is missing. */
function realCommands(): string[] {
  const c = realBashCorpora();
  return c ? [...c.tldr, ...c.nl2bash, ...c.agent] : [];
}

const real = realCommands();

describe.skipIf(real.length === 0)('real commands stay far below both caps', () => {
  it('every parse of every real command takes under a twentieth of each cap (nested parses: a quarter)', () => {
    let peakProgress = 0;
    let peakNodes = 0;
    let peakNested = 0;
    for (const command of real) {
      const budget = new AnalysisBudget(60_000);
      const a = analyzeWithBudget(command, opts, budget);
      expect(a.findings.find((f) => f.id === 'ANALYSIS_BUDGET')).toBeUndefined();
      peakProgress = Math.max(peakProgress, budget.peakProgressReports);
      peakNodes = Math.max(peakNodes, budget.peakNodes);
      peakNested = Math.max(peakNested, budget.parses.size + budget.partialParses.size);
    }
    expect(real.length).toBeGreaterThan(40_000);
    expect(peakNodes).toBeGreaterThan(100); // the counts are real (the longest agent command has hundreds)
    expect(peakProgress).toBeLessThan(PARSE_BUDGET.maxProgressReports / 20);
    expect(peakNodes).toBeLessThan(PARSE_BUDGET.maxNodes / 20);
    // the different texts one analysis parses (the line, nested scripts, substitution bodies)
    expect(peakNested).toBeLessThan(MAX_NESTED_PARSES / 4);
  });
});
