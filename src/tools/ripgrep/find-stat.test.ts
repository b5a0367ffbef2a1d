/**
 * find stats the names a lister prints (ripgrep in Glob; `sh`'s printf here, so the names, a link
 * and a vanished file are exactly what the test says): mtimes as statSync gives them, links and
 * missing files left out, a lister that never runs or never ends does not hang the listing.
 */
import { statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GnuFind, gnuFindInfo } from './find-listing.js';
import { listFilesWithRipgrepAndFind } from './find-stat.js';

let dir: string;
let find: GnuFind;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-find-stat-'));
  writeFileSync(path.join(dir, 'a.ts'), 'a');
  writeFileSync(path.join(dir, '-dash.ts'), 'd');
  symlinkSync('a.ts', path.join(dir, 'link.ts'));
  find = (await gnuFindInfo()) as GnuFind;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function collect(script: string, onFile?: (rel: string) => boolean) {
  const files = new Map<string, number>();
  const run = listFilesWithRipgrepAndFind(
    '/bin/sh',
    ['-c', script],
    find,
    { root: dir, signal: new AbortController().signal, timeoutMs: 20_000 },
    (rel, mtimeMs) => {
      files.set(rel, mtimeMs);
      return onFile ? onFile(rel) : true;
    },
  );
  return { files, run };
}

it('this machine has a find that reads names from stdin (else Glob keeps stat-ing from Node)', () => {
  expect(find?.files0From).toBe(true);
});

it('gives the listed regular files with their mtimes; a link and a vanished file are left out', async () => {
  const { files, run } = collect(`printf './a.ts\\0./-dash.ts\\0./link.ts\\0./gone.ts\\0'`);
  const outcome = await run;
  expect([...files.keys()].sort()).toEqual(['-dash.ts', 'a.ts']);
  expect(files.get('a.ts')).toBe(statSync(path.join(dir, 'a.ts')).mtimeMs);
  expect(outcome.ripgrep.exitCode).toBe(0);
  expect(outcome.find.exitCode, 'find reports the vanished file').toBe(1);
  expect(outcome.stopped).toBe(false);
});

it('the lister exit code and stderr come back for the caller to judge (a malformed glob)', async () => {
  const { files, run } = collect('echo "error parsing glob" >&2; exit 2');
  const outcome = await run;
  expect(files.size).toBe(0);
  expect(outcome.ripgrep.exitCode).toBe(2);
  expect(outcome.ripgrep.stderr).toContain('error parsing glob');
});

it('an early stop ends a lister that would print for ever', async () => {
  const { files, run } = collect(`while :; do printf './a.ts\\0'; done`, () => false);
  const outcome = await run;
  expect(outcome.stopped).toBe(true);
  expect(files.size).toBe(1);
});

it('a lister that cannot start is an error, not a hang', async () => {
  await expect(
    listFilesWithRipgrepAndFind(
      path.join(dir, 'no-such-binary'),
      [],
      find,
      { root: dir, signal: new AbortController().signal },
      () => true,
    ),
  ).rejects.toThrow(/ENOENT/);
});
