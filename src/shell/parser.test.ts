/**
 * `parseBash` hands tree-sitter the text through a read callback in chunks (parser.ts: a whole chunk
 * for text not read yet, a shorter one for a re-read inside the text already read). However the text
 * is chunked, the tree must be the one tree-sitter builds from the whole text at once: compared here
 * with a bare web-tree-sitter parser given the string, on the worst-case shapes the budget does not
 * cut, heredoc bodies (the inputs tree-sitter re-reads line by line) and non-ASCII text (a chunk
 * must never end between the two halves of a surrogate pair).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORST_CASE_GENERATORS } from '../testing/worst-case-commands.js';
import { createTreeCopier, type TreeCopier } from './parser-copy.js';
import { initShellParser, parseBash } from './parser.js';
import { treeShape } from './testing-helpers.js';

let bare: Parser;
let copier: TreeCopier;

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
  copier = createTreeCopier(language, moduleObject);
});
afterAll(() => bare?.delete());

const shape = treeShape;

/** The tree of `text` parsed as one string by a parser without Gantry's read callback. */
function wholeTextTree(text: string): string[] {
  const tree = bare.parse(text);
  if (!tree) throw new Error('tree-sitter gave no tree');
  try {
    return shape(copier.copy(tree, 'portable').root);
  } finally {
    tree.delete();
  }
}

const line = (i: number) => `line ${i} $(date) \`id\` ${'x'.repeat(i % 300)}\n`;

/** [text, reason]. */
const ROWS: [string, string][] = [
  [
    `cat <<EOF\n${Array.from({ length: 400 }, (_, i) => line(i)).join('')}EOF\nls`,
    'a body of lines of 20 to 320 characters, re-read line by line across many chunks',
  ],
  [
    `cat <<'EOF'\n${'é😀 $x\n'.repeat(3000)}EOF\nrm -f y`,
    'non-ASCII body lines: re-reads start and end beside surrogate pairs',
  ],
  [`cat <<EOF\n${'\n'.repeat(5000)}EOF`, 'a body of empty lines'],
  [
    `cat <<A <<B\n${'a $x\n'.repeat(400)}A\n${'b `y`\n'.repeat(400)}B\necho done`,
    'two bodies after one operator line',
  ],
  [
    `echo ${'😀'.repeat(3000)} && cat <<E\n${'😀\n'.repeat(3000)}E`,
    'surrogate pairs across every chunk boundary',
  ],
];

describe('the chunked reads give the tree of the whole text', () => {
  it.each(ROWS)('%#: %s', (text, _reason) => {
    const parsed = parseBash(text);
    expect(parsed.cut).toBeUndefined();
    expect(shape(parsed.root)).toEqual(wholeTextTree(text));
  });

  it('on every worst-case shape the budget does not cut, at 1, 4 and 16 KiB', () => {
    let compared = 0;
    for (const g of WORST_CASE_GENERATORS)
      for (const size of [1024, 4096, 16384]) {
        const text = g.build(size);
        const parsed = parseBash(text);
        if (parsed.cut) continue;
        compared++;
        expect(shape(parsed.root), `${g.name} at ${size}`).toEqual(wholeTextTree(text));
      }
    // the shapes the budget cuts (the read budget, and at 16 KiB the node cap) are left out
    expect(compared).toBeGreaterThan(WORST_CASE_GENERATORS.length * 1.5);
  });
});
