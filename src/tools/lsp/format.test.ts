/** The model's rendering of LSP answers and the normalisation of protocol results (pure). */
import { describe, expect, it } from 'vitest';
import { diagnosticLine, reportable } from './diagnostics.js';
import { MAX_RENDERED_ENTRIES, renderLspOutput } from './format.js';
import { hoverText, type LspOutput, normaliseLocations, wordAt } from './operations.js';

const cwd = '/p';
const base = { server: 'ts', filePath: '/p/src/a.ts', line: 3, character: 5 } as const;
const range = (l: number, c: number) => ({
  start: { line: l, character: c },
  end: { line: l, character: c + 3 },
});

describe('renderLspOutput', () => {
  it.each<[LspOutput, string, string]>([
    [
      { ...base, operation: 'goToDefinition', locations: [] },
      'No definition found at src/a.ts:3:5.',
      'nothing found',
    ],
    [
      {
        ...base,
        operation: 'findReferences',
        locations: [
          { filePath: '/p/src/a.ts', line: 1, character: 2, endLine: 1, endCharacter: 5, lineText: 'f()' },
          { filePath: '/elsewhere/b.ts', line: 9, character: 1, endLine: 9, endCharacter: 4 },
        ],
      },
      'Found 2 references in 2 files (for src/a.ts:3:5):\nsrc/a.ts\n  1:2  f()\n/elsewhere/b.ts\n  9:1',
      'grouped by file; outside the cwd stays absolute; no source line when none was read',
    ],
    [{ ...base, operation: 'hover', hover: null }, 'No hover information at src/a.ts:3:5.', 'empty hover'],
    [
      {
        ...base,
        operation: 'documentSymbol',
        symbols: [
          {
            name: 'C',
            kind: 'Class',
            line: 1,
            character: 14,
            endLine: 1,
            endCharacter: 15,
            children: [
              { name: 'm', kind: 'Method', detail: '()', line: 2, character: 3, endLine: 2, endCharacter: 4 },
            ],
          },
        ],
      },
      '2 symbols in src/a.ts:\nClass C (1:14)\n  Method m () (2:3)',
      'a tree, children indented',
    ],
    [
      { ...base, operation: 'workspaceSymbol', query: 'zz', symbols: [] },
      'No symbols match "zz" in the workspace.',
      'no workspace symbol',
    ],
    [
      { ...base, operation: 'incomingCalls', items: [], calls: [] },
      'No function or method at src/a.ts:3:5 to build a call hierarchy for.',
      'not on a function',
    ],
  ])('%# %s', (out, expected, _reason) => {
    expect(renderLspOutput(out, cwd)).toBe(expected);
  });

  it(`cuts long lists at ${MAX_RENDERED_ENTRIES} entries and says how many are left`, () => {
    const locations = Array.from({ length: MAX_RENDERED_ENTRIES + 5 }, (_, i) => ({
      filePath: '/p/x.ts',
      line: i + 1,
      character: 1,
      endLine: i + 1,
      endCharacter: 2,
    }));
    const text = renderLspOutput({ ...base, operation: 'findReferences', locations }, cwd);
    expect(text.split('\n')).toHaveLength(MAX_RENDERED_ENTRIES + 3);
    expect(text).toContain('… and 5 more (the full list is in the structured result)');
  });
});

describe('protocol results', () => {
  it('locations: a Location, a list, and LocationLinks (their selection range), 1-based', () => {
    expect(normaliseLocations({ uri: 'file:///p/a.ts', range: range(0, 0) })).toEqual([
      { filePath: '/p/a.ts', line: 1, character: 1, endLine: 1, endCharacter: 4 },
    ]);
    expect(
      normaliseLocations([
        { targetUri: 'file:///p/b%20c.ts', targetRange: range(4, 0), targetSelectionRange: range(4, 9) },
      ]),
    ).toEqual([{ filePath: '/p/b c.ts', line: 5, character: 10, endLine: 5, endCharacter: 13 }]);
    expect(normaliseLocations(null)).toEqual([]);
  });

  it.each([
    [{ contents: { kind: 'markdown', value: '```ts\nx: number\n```' } }, '```ts\nx: number\n```', 'markup'],
    [{ contents: ['one', { language: 'sh', value: 'echo' }] }, 'one\n\n```sh\necho\n```', 'marked strings'],
    [{ contents: '  ' }, null, 'blank is nothing'],
  ])('hover %j → %j (%s)', (hover, expected, _reason) => {
    expect(hoverText(hover as Parameters<typeof hoverText>[0])).toBe(expected);
  });

  it.each([
    ['  return add(1, 2);', 9, 'add', 'at the first letter'],
    ['  return add(1, 2);', 12, 'add', 'just after the word'],
    ['$x = foo_bar', 6, 'foo_bar', 'underscores are part of a word'],
    ['a + b', 2, '', 'on an operator between spaces'],
  ])('wordAt(%j, %d) → %j (%s)', (line, character, expected, _reason) => {
    expect(wordAt(line, character)).toBe(expected);
  });
});

describe('diagnostic lines', () => {
  it('errors and warnings in file order, 1-based, TypeScript codes as TSnnnn', () => {
    const all = [
      { range: range(4, 2), message: 'later', severity: 2 as const, source: 'shellcheck', code: 'SC2086' },
      {
        range: range(1, 6),
        message: "Type 'number' is not\n  assignable",
        severity: 1 as const,
        source: 'typescript',
        code: 2322,
      },
      { range: range(0, 0), message: 'a hint', severity: 4 as const },
    ];
    expect(reportable(all).map(diagnosticLine)).toEqual([
      "2:7 error TS2322: Type 'number' is not assignable (typescript)",
      '5:3 warning SC2086: later (shellcheck)',
    ]);
  });
});
