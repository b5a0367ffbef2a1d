/**
 * The literal-command gate (literal-command.ts) against tree-sitter: every line it admits from the
 * shared command corpora (tldr pages, real agent sessions) and from generated lines gets the same
 * tree node for node, the same analysis and the same call description (what the permission engine
 * decides from) as with the gate off; every line with any other character is refused.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/seeded-random.js';
import { sharedFile } from '../testing/shared-data.js';
import { analyzeCommand } from './analyze.js';
import { describeAnalysis } from './index.js';
import {
  isLiteralCommand,
  LITERAL_MAX_CHARS,
  literalCommandTree,
  setLiteralGate,
} from './literal-command.js';
import {
  initShellParser,
  MAX_PARSE_INPUT_CHARS,
  type ParsedBash,
  parseBash,
  type SyntaxNode,
} from './parser.js';

const tldr = sharedFile('data/real/tldr-commands.jsonl');
const agent = sharedFile('data/real/agent-tool-calls.jsonl');

function corpusCommands(): string[] {
  const out: string[] = [];
  if (tldr)
    for (const l of readFileSync(tldr, 'utf8').split('\n'))
      if (l) out.push((JSON.parse(l) as { command: string }).command);
  if (agent)
    for (const l of readFileSync(agent, 'utf8').split('\n')) {
      if (!l) continue;
      const row = JSON.parse(l) as { tool: string; input?: { command?: unknown } };
      if (row.tool === 'Bash' && typeof row.input?.command === 'string') out.push(row.input.command);
    }
  return out;
}

/** Deterministic, so a failure names a line that reproduces. */
const random = seededRandom;

const ALPHABET = 'abcXYZ019_-./,:@+%';
const SPECIAL_WORDS = [
  '0',
  '-1',
  '08',
  '0x12',
  '0x1f',
  '1.5',
  '-0x5',
  '--1',
  '0x',
  'do',
  'time',
  'git',
  'sh',
  '-c',
  'eval',
  'xargs',
  'find',
  '-exec',
  'rm',
  '-rf',
  '/',
  'env',
  'sudo',
  'ls',
];

function generatedLines(count: number): string[] {
  const next = random(20261201);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    const n = 1 + Math.floor(next() * 5);
    for (let w = 0; w < n; w++) {
      if (next() < 0.35) words.push(SPECIAL_WORDS[Math.floor(next() * SPECIAL_WORDS.length)] as string);
      else {
        let word = '';
        const len = 1 + Math.floor(next() * 6);
        for (let c = 0; c < len; c++) word += ALPHABET[Math.floor(next() * ALPHABET.length)];
        words.push(word);
      }
    }
    lines.push(words.join(' '));
  }
  return lines;
}

/** A tree as comparable data (parents dropped: they follow from the nesting). */
function plain(n: SyntaxNode): unknown {
  return {
    type: n.type,
    named: n.named,
    missing: n.missing,
    field: n.field,
    start: n.start,
    end: n.end,
    children: n.children.map(plain),
  };
}
const view = (p: ParsedBash) => ({
  source: p.source,
  hasError: p.hasError,
  nodeCount: p.nodeCount,
  cut: p.cut,
  root: plain(p.root),
});

function treeSitter(source: string): ParsedBash {
  const was = setLiteralGate(false);
  try {
    return parseBash(source);
  } finally {
    setLiteralGate(was);
  }
}

const world = { cwd: '/nonexistent-gantry-literal/project', home: '/nonexistent-gantry-literal/home' };

beforeAll(async () => {
  await initShellParser();
});

describe('the literal gate gives exactly the tree tree-sitter gives', () => {
  it('for every admitted line of the generated set, and admits most of them', () => {
    const lines = generatedLines(Number(process.env.LITERAL_LINES ?? 6000));
    let admitted = 0;
    for (const line of lines) {
      const literal = literalCommandTree(line);
      if (!literal) continue;
      admitted++;
      expect(view(literal), line).toEqual(view(treeSitter(line)));
      for (const n of [literal.root, ...literal.root.children])
        for (const c of n.children) expect(c.parent).toBe(n);
    }
    expect(admitted).toBeGreaterThan(2000); // about 2500 of 6000
  });

  it.skipIf(!tldr && !agent)(
    'for every admitted line of the shared corpora, with the same analysis and description',
    () => {
      const lines = [...new Set(corpusCommands())].filter(isLiteralCommand);
      expect(lines.length).toBeGreaterThan(500);
      for (const line of lines) {
        expect(view(literalCommandTree(line) as ParsedBash), line).toEqual(view(treeSitter(line)));
        const gated = analyzeCommand(line, world);
        const was = setLiteralGate(false);
        let full;
        try {
          full = analyzeCommand(line, world);
        } finally {
          setLiteralGate(was);
        }
        expect(gated, line).toEqual(full);
        expect(describeAnalysis(gated), line).toEqual(describeAnalysis(full));
      }
    },
  );

  it('for long lines up to the parse cap, with the same analysis', () => {
    const words = (n: number, len: number) =>
      Array.from({ length: n }, (_, i) => `w${i}${'x'.repeat(len)}`).join(' ');
    for (const [line, why] of [
      [`echo ${'a'.repeat(MAX_PARSE_INPUT_CHARS - 5)}`, 'one word filling the cap'],
      [`ls ${'9'.repeat(30_000)}`, 'a 30,000-digit number word'],
      [`ls -${'1'.repeat(10_000)}`, 'a long negative number'],
      [`git ${words(63, 900)}`, '64 words near the cap'],
      [`sh -c ${'a'.repeat(20_000)}`, 'a launched program with a long literal script'],
      [`rm -rf /${'a/'.repeat(10_000)}`, 'a long path under /'],
    ] as const) {
      expect(line.length, why).toBeLessThanOrEqual(MAX_PARSE_INPUT_CHARS);
      const literal = literalCommandTree(line);
      expect(literal, why).toBeDefined();
      expect(view(literal as ParsedBash), why).toEqual(view(treeSitter(line)));
      const gated = analyzeCommand(line, world);
      const was = setLiteralGate(false);
      try {
        expect(gated, why).toEqual(analyzeCommand(line, world));
      } finally {
        setLiteralGate(was);
      }
    }
  });

  it('and the same analysis for generated lines that launch other programs', () => {
    for (const line of [
      'sh -c ls',
      'bash -c git',
      'eval ls -la',
      'xargs rm -rf',
      'find . -exec rm',
      'sudo rm -rf /',
      'env ls',
      'timeout 5 ls',
      'ssh host ls',
      'git -C /tmp status',
      'rm -rf /',
      'curl http://x',
      'ls -la 2',
    ]) {
      expect(isLiteralCommand(line), line).toBe(true);
      const gated = analyzeCommand(line, world);
      const was = setLiteralGate(false);
      try {
        expect(gated, line).toEqual(analyzeCommand(line, world));
      } finally {
        setLiteralGate(was);
      }
    }
  });
});

describe('the literal gate refuses', () => {
  it('every line holding a character outside its set, wherever it stands', () => {
    const allowed = new Set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:+ ');
    const others: string[] = [];
    for (let c = 0; c < 0x250; c++)
      if (!allowed.has(String.fromCharCode(c))) others.push(String.fromCharCode(c));
    others.push('\u2028', '\u00a0', '\ufeff', '\ud83d\ude00', '\ud800');
    for (const ch of others)
      for (const line of [`${ch}ls`, `ls${ch}`, `ls ${ch}`, `ls -l${ch}a`, `l${ch}s x`, ch])
        expect(isLiteralCommand(line), JSON.stringify(line)).toBe(false);
  });

  it.each([
    ['', 'an empty line: tree-sitter gives an empty program, not a command'],
    [' ls', 'leading space'],
    ['ls ', 'trailing space'],
    ['ls  -la', 'two spaces between words'],
    ['ls\t-la', 'a tab'],
    ['export PATH', 'a declaration command has its own node type'],
    ['local x', 'a declaration command'],
    ['unset x', 'an unset command has its own node type'],
    ['if', 'a reserved word as the command'],
    ['echo done', 'a reserved word anywhere: a launched script could start with it'],
    ['eval function', 'a reserved word a launched script would start with'],
    [`ls ${'a'.repeat(LITERAL_MAX_CHARS)}`, 'longer than the gate admits: tree-sitter and its budget'],
    [Array.from({ length: 65 }, () => 'a').join(' '), 'more than 64 words'],
  ])('%j (%s)', (line) => {
    expect(isLiteralCommand(line)).toBe(false);
    expect(literalCommandTree(line)).toBeUndefined();
  });
});
