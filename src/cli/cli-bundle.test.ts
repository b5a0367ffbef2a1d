/**
 * The command line's bundle (dist/fast/gantry-cli.cjs) is ASCII, so the code-cache loader decodes it
 * as Latin-1 instead of UTF-8 at every start (docs/startup.md, "The command line's bundle"). esbuild
 * escapes non-ASCII characters in strings and templates but leaves regular expression literals as
 * written: a source regex needs `\u2192`, not `→`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/shared-data.js';

beforeAll(() => {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
});

it('the command-line bundle holds only ASCII characters (its license notes are in a file beside it)', () => {
  const file = path.join(REPO_ROOT, 'dist', 'fast', 'gantry-cli.cjs');
  const text = readFileSync(file, 'utf8');
  const at = text.search(/[^\x00-\x7f]/);
  const context = at < 0 ? '' : text.slice(Math.max(0, at - 80), at + 40);
  expect(at, `non-ASCII character in ${file}: …${context}… (write it as a \\u escape in the source)`).toBe(
    -1,
  );
  expect(readFileSync(`${file}.LEGAL.txt`, 'utf8')).toContain('MIT License');
});
