/**
 * Test support (imported by tests and benches only): builds a real directory tree with the cases
 * Glob and Grep must handle — a git repository with .gitignore'd files and directories, `.git`
 * internals, dot-files, unicode and awkward names (`-dash`, `a:b`), CRLF, UTF-16 and a BOM, a minified
 * long line, a binary file, symlinks to a file and a directory outside the tree — and sets
 * distinct modification times so mtime order is known.
 */
import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Files of the fixture tree, relative path → content. */
export const FIXTURE_FILES: Readonly<Record<string, string | Buffer>> = {
  '.git/HEAD': 'ref: refs/heads/main foo\n',
  '.git/config': '[core]\n\tfoo = true\n',
  '.gitignore': 'ignored/\n*.log\nnode_modules/\n',
  'debug.log': 'foo in an ignored log\n',
  'ignored/skip.ts': 'export const foo = 1;\n',
  'node_modules/pkg/index.js': 'module.exports = "foo";\n',
  '.env': 'FOO=foo-secret\n',
  '.hidden/h.ts': 'const foo = "hidden";\n',
  'README.md': '# Title\n\nfoo bar baz\nFOO upper\n',
  'src/a.ts': 'import x from "y";\nexport function foo() {\n  return 1;\n}\n// foo again\n',
  'src/b.tsx': 'export const Foo = () => <div>foo</div>;\n',
  'src/nested/deep/c.ts':
    'line one\nline two foo\nline three\nline four\nline five\nline six foo\nline seven\n',
  'src/ünïcödé-名前.ts': 'export const ünï = "foo ünïcödé";\n',
  'src/crlf.txt': 'first\r\nfoo at end\r\nlast foo\r\n',
  'src/-dash.txt': 'has -x flag\nand --long-flag foo\n',
  'src/a:b.txt': 'colon name foo\n',
  'src/utf16.txt': Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('utf16 foo line\nsecond\n', 'utf16le'),
  ]),
  'src/bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom foo\n')]),
  'src/min.js': `${'var a=1;'.repeat(80)}foo();${'var b=2;'.repeat(20)}\n`,
  'src/binary.bin': Buffer.from([0x66, 0x6f, 0x6f, 0x00, 0x01, 0x02, 0x0a]),
  'src/multi.txt': 'struct A {\n  field: u32,\n}\nstruct B {\n  other: u8,\n}\n',
  'docs/guide.md': 'Guide\nfoo\n',
};

/** Outside the tree: targets of the symlinks inside it. */
export const OUTSIDE_FILES: Readonly<Record<string, string>> = {
  'secret/key.txt': 'foo outside secret\n',
};

/**
 * Writes the fixture into `dir/tree` (and `dir/outside`), with symlinks `tree/src/link-file.ts` →
 * `outside/secret/key.txt` and `tree/src/link-dir` → `outside/secret`. Modification times are set
 * one minute apart in the order of FIXTURE_FILES (first = oldest). Returns the tree root.
 */
export async function buildSearchFixture(dir: string): Promise<string> {
  const tree = path.join(dir, 'tree');
  const outside = path.join(dir, 'outside');
  const base = Date.parse('2024-01-01T00:00:00Z') / 1000;
  let i = 0;
  for (const [rel, content] of Object.entries(FIXTURE_FILES)) {
    const abs = path.join(tree, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
    const t = base + 60 * i++;
    await utimes(abs, t, t);
  }
  for (const [rel, content] of Object.entries(OUTSIDE_FILES)) {
    const abs = path.join(outside, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
  await symlink(path.join(outside, 'secret/key.txt'), path.join(tree, 'src/link-file.ts'));
  await symlink(path.join(outside, 'secret'), path.join(tree, 'src/link-dir'));
  return tree;
}

/** Sets the mtime of `abs` to `isoTime`. */
export async function setMtime(abs: string, isoTime: string): Promise<void> {
  const t = Date.parse(isoTime) / 1000;
  await utimes(abs, t, t);
}
