/**
 * code-cache.ts: a bundle loaded twice takes V8's cache the second time; a changed bundle never
 * meets the cache of the old text; an untrusted cache directory or file is neither read nor
 * written; a corrupt cache is rejected by V8 and remade. Real files, real V8: each load runs in a
 * fresh Node process (the built dist/fast/gantry-code-cache.cjs), as the in-process check does —
 * within one process V8 reuses its own compilation and never looks at the cache.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/shared-data.js';
import { buildKeyLine } from './code-cache.js';

const LOADER = path.join(REPO_ROOT, 'dist', 'fast', 'gantry-code-cache.cjs');

beforeAll(() => {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--js-only'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
});

let root: string;
let cacheDir: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-code-cache-')));
  cacheDir = path.join(root, 'home', '.gantry', 'cache');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Writes a CommonJS bundle as scripts/build.mjs does: the key line, then the code. */
function writeBundle(file: string, code: string, keyed = true): void {
  const key = createHash('sha256').update(code).digest('hex');
  writeFileSync(file, keyed ? buildKeyLine(key) + code : code);
}

const bundleCode = (answer: string) =>
  `const path = require('node:path');\nexports.answer = () => ${JSON.stringify(answer)} + path.basename(__filename);\n`;

interface Loaded {
  state: string;
  reason?: string;
  /** What the bundle's `answer()` returned. */
  answer: string;
}

/** Loads `file` in a fresh process, calls its `answer()`, then (unless `save` is false) `saveCache()`. */
function load(
  file: string,
  o: { env?: Record<string, string>; euid?: number; save?: boolean; flags?: string; variant?: string } = {},
): Loaded {
  const script = `
    ${o.flags ? `require('node:v8').setFlagsFromString(${JSON.stringify(o.flags)});` : ''}
    const { requireWithCodeCache } = require(${JSON.stringify(LOADER)});
    const b = requireWithCodeCache(${JSON.stringify(file)}, {
      cacheDir: ${JSON.stringify(cacheDir)}, env: ${JSON.stringify(o.env ?? {})}${o.euid !== undefined ? `, euid: ${o.euid}` : ''}${o.variant ? `, variant: ${JSON.stringify(o.variant)}` : ''}
    });
    const answer = b.exports.answer();
    ${o.save === false ? '' : 'b.saveCache();'}
    process.stdout.write(JSON.stringify({ state: b.state, reason: b.reason, answer }));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Loaded;
}

describe('requireWithCodeCache', () => {
  it('makes the cache after the first run and takes it on the second; the module works both times', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('one:'));
    const first = load(file);
    expect(first).toMatchObject({ state: 'absent', answer: 'one:b.cjs' });
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(cacheDir);
    expect(files).toHaveLength(1);
    expect(statSync(path.join(cacheDir, files[0] as string)).mode & 0o777).toBe(0o600);

    expect(load(file)).toMatchObject({ state: 'accepted', answer: 'one:b.cjs' });
  });

  it('a bundle with UTF-8 text outside ASCII (a hand-edited one) reads as UTF-8, the ASCII one as itself', () => {
    const file = path.join(root, 'u.cjs');
    writeBundle(file, bundleCode('caf\u00e9 \u2192 \u{1f600} '));
    expect(load(file).answer).toBe('caf\u00e9 \u2192 \u{1f600} u.cjs');
    expect(load(file)).toMatchObject({ state: 'accepted', answer: 'caf\u00e9 \u2192 \u{1f600} u.cjs' });
    const ascii = path.join(root, 'a.cjs');
    writeBundle(ascii, bundleCode('plain ~/x '));
    expect(load(ascii).answer).toBe('plain ~/x a.cjs');
  });

  it('the built in-process bundles are plain ASCII (read as Latin-1; the build escapes comments)', () => {
    for (const name of ['gantry-check-local.cjs', 'gantry-hook-cold.cjs']) {
      const bytes = readFileSync(path.join(REPO_ROOT, 'dist', 'fast', name));
      expect(
        bytes.every((b) => b < 0x80),
        name,
      ).toBe(true);
    }
  });

  it('a bundle of the same length with other code runs its own code, never the cache of the old text', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('one:'));
    load(file);
    // same length, same mtime (as npm sets it for every file of a package): only the key differs
    const mtime = statSync(file).mtime;
    writeBundle(file, bundleCode('two:'));
    utimesSync(file, mtime, mtime);
    expect(load(file)).toMatchObject({ state: 'absent', answer: 'two:b.cjs' });
    // the cache of the other build is replaced, not kept beside it
    expect(readdirSync(cacheDir)).toHaveLength(1);
  });

  it('two installs of the same bundle (other folders) keep one cache each, never evicting the other', () => {
    const global = path.join(root, 'global', 'b.cjs');
    const local = path.join(root, 'local', 'b.cjs');
    mkdirSync(path.dirname(global));
    mkdirSync(path.dirname(local));
    writeBundle(global, bundleCode('g:'));
    writeBundle(local, bundleCode('l:'));
    load(global);
    load(local);
    expect(readdirSync(cacheDir)).toHaveLength(2);
    expect(load(global)).toMatchObject({ state: 'accepted', answer: 'g:b.cjs' });
    expect(load(local)).toMatchObject({ state: 'accepted', answer: 'l:b.cjs' });
  });

  it('runs under two V8 flag sets keep one cache per variant, so switching never remakes either', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('v:'));
    load(file, { variant: 'default' });
    load(file, { variant: 'liftoff', flags: '--liftoff-only' });
    expect(readdirSync(cacheDir)).toHaveLength(2);
    expect(load(file, { variant: 'default' })).toMatchObject({ state: 'accepted', answer: 'v:b.cjs' });
    expect(load(file, { variant: 'liftoff', flags: '--liftoff-only' })).toMatchObject({ state: 'accepted' });
    // one cache for both would be made under one flag set and refused under the other
    expect(load(file, { variant: 'liftoff' })).toMatchObject({ state: 'rejected', answer: 'v:b.cjs' });
  });

  it('a bundle edited by hand (the key line left as it was) does not meet the old cache either', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('one:'));
    load(file);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('one:', 'six:'));
    utimesSync(file, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    expect(load(file)).toMatchObject({ state: 'absent', answer: 'six:b.cjs' });
  });

  it.each([
    ['a cache directory others can write', (dir: string) => chmodSync(dir, 0o777), /mode 777/],
    [
      'a cache directory that is a symbolic link',
      (dir: string) => {
        const elsewhere = path.join(root, 'elsewhere');
        rmSync(dir, { recursive: true });
        mkdirSync(elsewhere, { mode: 0o700 });
        symlinkSync(elsewhere, dir);
      },
      /symbolic link/,
    ],
    [
      'a cache file others can write',
      (dir: string) => {
        for (const f of readdirSync(dir)) chmodSync(path.join(dir, f), 0o666);
      },
      /written by other users/,
    ],
  ])('%s is neither read nor written; the bundle still runs', (_name, spoil, reason) => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('one:'));
    load(file);
    spoil(cacheDir);
    const before = readdirSync(cacheDir).map((f) => [f, statSync(path.join(cacheDir, f)).mtimeMs]);
    const r = load(file);
    expect(r).toMatchObject({ state: 'untrusted', answer: 'one:b.cjs' });
    expect(r.reason).toMatch(reason);
    expect(readdirSync(cacheDir).map((f) => [f, statSync(path.join(cacheDir, f)).mtimeMs])).toEqual(before);
  });

  it('a cache directory of another user is refused', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('one:'));
    load(file);
    const uid = statSync(cacheDir).uid;
    const r = load(file, { euid: uid + 1 });
    expect(r.state).toBe('untrusted');
    expect(r.reason).toMatch(/belongs to uid/);
  });

  it('a corrupt cache is rejected by V8, the bundle runs, and the cache is made again', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('one:'));
    load(file);
    const [name] = readdirSync(cacheDir) as [string];
    writeFileSync(path.join(cacheDir, name), Buffer.alloc(4096, 7), { mode: 0o600 });
    expect(load(file)).toMatchObject({ state: 'rejected', answer: 'one:b.cjs' });
    expect(load(file).state).toBe('accepted');
  });

  it('a bundle without a key line, or GANTRY_CODE_CACHE=0, runs without a cache', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, bundleCode('one:'), false);
    expect(load(file).state).toBe('off');
    writeBundle(file, bundleCode('one:'));
    expect(load(file, { env: { GANTRY_CODE_CACHE: '0' } }).state).toBe('off');
    expect(() => readdirSync(cacheDir)).toThrow();
  });

  it('a bundle with UTF-8 text runs with its text intact, an ASCII one too (decoded as Latin-1)', () => {
    const utf8 = path.join(root, 'u.cjs');
    // raw UTF-8 bytes in the source, as a bundle carries them in a regular expression or a comment
    writeBundle(utf8, "/* Wärting */\nexports.answer = () => '‘é→’' + /→/.test('a→b');\n");
    expect(load(utf8)).toMatchObject({ state: 'absent', answer: '‘é→’true' });
    expect(load(utf8)).toMatchObject({ state: 'accepted', answer: '‘é→’true' });
    const ascii = path.join(root, 'a.cjs');
    writeBundle(ascii, "exports.answer = () => '\\u00e9' + /\\u2192/.test('a\\u2192b');\n");
    expect(load(ascii)).toMatchObject({ state: 'absent', answer: 'étrue' });
    expect(load(ascii)).toMatchObject({ state: 'accepted', answer: 'étrue' });
  });

  it('an error in the bundle is thrown as require would throw it', () => {
    const file = path.join(root, 'b.cjs');
    writeBundle(file, "throw new Error('broken bundle');\n");
    expect(() => load(file)).toThrow(/broken bundle/);
  });
});
