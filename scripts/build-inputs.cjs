// What a build of dist/ depends on, and whether dist/ is older than it. Used by scripts/build.mjs
// (it writes dist/.build-stamp.json), by `gantry doctor`, and by bin/gantry.js when it runs from a
// git checkout (it rebuilds a stale dist/ before running it). CommonJS with only Node built-ins:
// bin/gantry.js requires it on every start from a checkout, before any ES module is loaded.
'use strict';
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

/** The stamp file, relative to the repository root. */
const STAMP_FILE = 'dist/.build-stamp.json';
/** Files outside src/ whose change makes a new build. */
const EXTRA_INPUTS = [
  'package.json',
  'scripts/build.mjs',
  'scripts/build-inputs.cjs',
  'scripts/package-layout.cjs',
  'tsconfig.build.json',
];

/**
 * `{count, newestCtimeMs, dirs}` over every file under `src/` that can reach dist/ plus the build's
 * own inputs: a file edited, added, removed or renamed changes the count or the newest ctime (the
 * inode's change time, which a write, a rename or a chmod sets to now; a file moved into place keeps
 * its old mtime but not its old ctime). Test files (`*.test.ts`) and `src/testing/` are never built
 * (scripts/package-layout.cjs) and are skipped. `dirs` (only with `withDirs`) records, per directory
 * of src/, its mtime and the names of the counted files in it, for `guardStaleReason`.
 * @param {string} root the repository root
 * @param {{ withDirs?: boolean }} [o]
 * @returns {{ count: number, newestCtimeMs: number, dirs?: Record<string, { mtimeMs: number, names: string[] }> }}
 */
function sourceState(root, o = {}) {
  let count = 0;
  let newest = 0;
  const dirs = {};
  const visit = (file) => {
    const m = statSync(file).ctimeMs;
    count++;
    if (m > newest) newest = m;
  };
  // A walk by hand: faster on Node 20 than readdirSync's `recursive` option.
  const src = path.join(root, 'src');
  const skipDir = `${src}/testing`;
  const walk = (dir) => {
    const names = [];
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (p !== skipDir) walk(p);
      } else if (e.isFile() && counted(e.name)) {
        visit(p);
        names.push(e.name);
      }
    }
    if (o.withDirs) dirs[path.relative(root, dir)] = { mtimeMs: statSync(dir).mtimeMs, names: names.sort() };
  };
  walk(src);
  for (const f of EXTRA_INPUTS) if (existsSync(path.join(root, f))) visit(path.join(root, f));
  return o.withDirs ? { count, newestCtimeMs: newest, dirs } : { count, newestCtimeMs: newest };
}

/** Whether a file of this name under src/ (outside src/testing/) is one `sourceState` counts. */
function counted(name) {
  return !name.endsWith('.test.ts');
}

/** The stamp, or undefined when there is none or it cannot be read. */
function readStamp(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, STAMP_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why dist/ cannot be used as it is, or undefined when it is current.
 * @param {string} root the repository root
 * @param {{ types?: boolean }} [need] `types: true` also requires the declaration files (`npm pack`)
 * @returns {string | undefined}
 */
function staleReason(root, need = {}) {
  const stamp = readStamp(root);
  if (!stamp) return 'dist/ has not been built';
  const now = sourceState(root);
  if (stamp.count !== now.count || stamp.newestCtimeMs !== now.newestCtimeMs) {
    return 'the sources changed since dist/ was built';
  }
  if (need.types && stamp.types !== true) return 'dist/ was built without type declarations';
  return undefined;
}

/**
 * `staleReason` for what `gantry check` and `gantry hook` run (the clients, the in-process bundles,
 * the hook server and its analysis worker): instead of walking all of src/, only the source files
 * those bundles were built from (`stamp.guard.files`, from esbuild's metafiles) and the build's own
 * inputs are stat'ed, each against the stamp's newest ctime; a directory holding one of them whose
 * mtime moved is listed again, and a counted file added, removed or renamed there makes dist/ stale
 * (a new `x.js` beside `x.ts` can change what an import resolves to). Whatever makes this answer
 * stale also makes `staleReason` stale (the rebuild it triggers is never skipped); an edit elsewhere
 * in src/ is found by the full comparison of the next command that runs other code.
 * @param {string} root the repository root
 * @returns {string | undefined}
 */
function guardStaleReason(root) {
  const stamp = readStamp(root);
  if (!stamp) return 'dist/ has not been built';
  const guard = stamp.guard;
  if (!guard || !Array.isArray(guard.files) || typeof stamp.newestCtimeMs !== 'number')
    return staleReason(root);
  const changed = 'the sources changed since dist/ was built';
  const newest = stamp.newestCtimeMs;
  // plain concatenation: path.join normalises every path, which costs more than the stat itself
  const base = root.endsWith('/') ? root : `${root}/`;
  for (const f of EXTRA_INPUTS) {
    const there = existsSync(base + f);
    if (there !== (guard.extras ?? []).includes(f)) return changed;
    if (there && statSync(base + f).ctimeMs > newest) return changed;
  }
  for (const f of guard.files) {
    let s;
    try {
      s = statSync(base + f);
    } catch {
      return changed;
    }
    if (s.ctimeMs > newest) return changed;
  }
  for (const [dir, recorded] of Object.entries(guard.dirs ?? {})) {
    let mtimeMs;
    try {
      mtimeMs = statSync(base + dir).mtimeMs;
    } catch {
      return changed;
    }
    if (mtimeMs === recorded.mtimeMs) continue;
    const names = [];
    for (const e of readdirSync(base + dir, { withFileTypes: true }))
      if (e.isFile() && counted(e.name)) names.push(e.name);
    if (names.sort().join('\n') !== recorded.names.join('\n')) return changed;
  }
  return undefined;
}

module.exports = { STAMP_FILE, EXTRA_INPUTS, sourceState, staleReason, guardStaleReason };
