/**
 * ripgrep and the JavaScript fallback give the same answers on the fixture tree. Each row runs both engines and compares every record; file and
 * count records are compared as sets (their order is not part of the contract), content lines in order.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_COLUMNS,
  type ListFilesRequest,
  listFiles,
  resolveSearchEngine,
  type SearchEngine,
  type SearchMode,
  type SearchRequest,
  searchFiles,
  VCS_DIRECTORIES,
} from './index.js';
import { buildSearchFixture } from './test-tree.js';

let dir: string;
let tree: string;
let rg: SearchEngine;
let js: SearchEngine;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-parity-'));
  tree = await buildSearchFixture(dir);
  rg = await resolveSearchEngine({ engine: 'ripgrep' });
  js = await resolveSearchEngine({ engine: 'javascript' });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('compares a real ripgrep binary with the JavaScript fallback', () => {
  expect(rg.kind).toBe('ripgrep');
  expect(js.kind).toBe('javascript');
});

type Options = Partial<Omit<SearchRequest, 'onRecord' | 'signal' | 'root' | 'rootIsFile'>> & {
  file?: string;
};

async function search(engine: SearchEngine, mode: SearchMode, pattern: string, options: Options) {
  const records: string[] = [];
  const { file, ...rest } = options;
  await searchFiles(engine, {
    root: file ? path.join(tree, file) : tree,
    rootIsFile: file !== undefined,
    pattern,
    caseInsensitive: false,
    multiline: false,
    globs: [],
    respectIgnore: true,
    excludeDirs: VCS_DIRECTORIES,
    onlyMatching: false,
    before: 0,
    after: 0,
    maxColumns: DEFAULT_MAX_COLUMNS,
    ...rest,
    mode,
    signal: new AbortController().signal,
    onRecord: (record) => {
      records.push(JSON.stringify(record));
      return true;
    },
  });
  return mode === 'content' ? records : records.sort();
}

const rows: Array<[string, Options, string]> = [
  ['foo', {}, 'plain literal over the whole tree (ignored files, .git and symlinks left out)'],
  ['FOO', { caseInsensitive: true }, '-i'],
  ['foo', { globs: ['*.ts'] }, 'a glob without a slash matches at any depth'],
  ['foo', { globs: ['src/*.ts'] }, 'a glob with a slash is anchored at the root'],
  ['foo', { globs: ['*.{ts,tsx}'] }, 'braces in a glob'],
  ['foo', { globs: ['!src/**'] }, 'a negated glob only excludes'],
  ['foo', { globs: ['*.log'] }, 'an including glob beats .gitignore for files (ripgrep override semantics)'],
  ['foo', { type: 'ts' }, '--type'],
  ['foo', { type: 'md', globs: ['*.txt'] }, 'an including glob beats --type'],
  ['-x', {}, 'a pattern starting with a dash'],
  ['foo$', {}, '$ matches before CRLF (--crlf)'],
  ['^line', {}, 'anchored at line start'],
  ['ünï', {}, 'unicode pattern and file name'],
  ['\\bfoo\\b', {}, 'word boundary'],
  ['foo', { file: 'src/a.ts' }, 'a single file as the root'],
  ['foo', { file: 'src/a:b.txt' }, 'a single file whose name has a colon'],
  ['struct A \\{.*?\\}', { multiline: true }, 'multiline with dotall'],
  ['t', { multiline: true, globs: ['multi.txt'] }, 'multiline count merges matches on the same line'],
  ['foo', { before: 1, after: 2 }, 'context lines'],
  ['fo+', { onlyMatching: true }, '-o prints matched parts'],
  ['foo', { globs: ['min.js'] }, 'a minified line longer than max-columns is cut to a preview'],
  ['no-such-text-anywhere', {}, 'no match at all'],
];

describe.each(['files', 'count', 'content'] as const)('ripgrep and the fallback agree (%s mode)', (mode) => {
  it.each(rows)('%s %j (%s)', async (pattern, options) => {
    const expected = await search(rg, mode, pattern, options);
    const actual = await search(js, mode, pattern, options);
    expect(actual).toEqual(expected);
  });
});

describe('ripgrep and the fallback list the same files (Glob)', () => {
  async function list(engine: SearchEngine, request: Partial<ListFilesRequest> & { pattern: string }) {
    const files: string[] = [];
    await listFiles(engine, {
      root: tree,
      caseInsensitive: false,
      respectIgnore: false,
      excludeDirs: VCS_DIRECTORIES,
      signal: new AbortController().signal,
      ...request,
      onFile: (rel) => {
        files.push(rel);
        return true;
      },
    });
    return files.sort();
  }

  it.each([
    ['**/*.ts', {}, 'recursive, ignored directories included (Glob does not honour .gitignore)'],
    ['*.md', {}, 'anchored at the root: top level only'],
    ['src/**/*', {}, 'everything under a directory, dot-files included'],
    ['**/*.{ts,tsx}', {}, 'braces'],
    ['.*', {}, 'dot-files at the top'],
    ['src/[ab].ts', {}, 'character class'],
    ['**/deep/*', {}, 'a directory name at any depth'],
    ['**/*', { excludeDirs: [] }, 'VCS directories listed when not excluded'],
    ['**/*.ts', { respectIgnore: true }, '.gitignore honoured on request'],
    ['**/*.TS', { caseInsensitive: true }, 'case-insensitive matching'],
    ['nothing-*', {}, 'no match'],
  ] as const)('%s %j (%s)', async (pattern, options, _why) => {
    const expected = await list(rg, { pattern, ...options });
    expect(await list(js, { pattern, ...options })).toEqual(expected);
    if (pattern !== 'nothing-*') expect(expected.length).toBeGreaterThan(0);
  });
});
