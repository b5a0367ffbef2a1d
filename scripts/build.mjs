// Builds dist/, the package's run-time code:
// - the library: one JavaScript file per shipped module of src/ outside src/cli/ (esbuild, no
//   bundling: same layout, same imports), with the files modules read at run time (the tools'
//   *.prompt.md) copied beside them;
// - the start-up bundles bin/gantry.js runs (dist/fast/; npm packages stay external): the clients of
//   the hook's resident server for `gantry hook` (run on every tool call of a host) and `gantry check`
//   (CommonJS, *.cjs), the in-process paths they fall back to, the hook server, the rest of the
//   command line, and the shell-analysis worker thread the servers (`gantry mcp`, the hook server)
//   start (ES modules, *.mjs);
// - the type declarations (`tsc -p tsconfig.build.json`, declarations only);
// - dist/.build-stamp.json, which bin/gantry.js compares with the sources in a git checkout.
//
//   node scripts/build.mjs                         everything (npm run build, npm ci, npm pack)
//   node scripts/build.mjs --js-only               everything but the declarations (~1 s)
//   node scripts/build.mjs --if-stale [--js-only]  only when dist/ is older than the sources
//
// Files are written to a temporary name and renamed, and one build runs at a time (a lock directory),
// so a process starting from dist/ while a build runs sees either the old file or the new one.
// Files a build no longer produces are removed at the end.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { asciiOnly, shareEsmInterop } from './build-bundle-text.mjs';

const require = createRequire(import.meta.url);
const { NOT_SHIPPED } = require('./package-layout.cjs');
const { STAMP_FILE, EXTRA_INPUTS, sourceState, staleReason } = require('./build-inputs.cjs');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const args = new Set(process.argv.slice(2));
const jsOnly = args.has('--js-only');
const LOCK = path.join(dist, '.build-lock');
const LOCK_STALE_MS = 180_000;

/** The start-up bundles that share chunks: entry name → source. */
const SPLIT_ENTRIES = {
  'gantry-hook': 'src/cli/hook/hook-bundle-entry.ts',
  'gantry-hook-cold': 'src/cli/hook/hook-cold.ts',
};
/**
 * The rest of the command line: one CommonJS file (gantry-cli.cjs) with the npm packages of
 * CLI_BUNDLED inside, run through V8's code cache like CACHED_ENTRIES (docs/startup.md).
 */
const CLI_ENTRY = { 'gantry-cli': 'src/cli/cli-entry.ts' };
/**
 * npm packages compiled into the command line's bundle (with the packages they import), so that
 * `gantry -p` reads one file at start rather than the ~700 modules these packages are made of
 * (docs/cli-print.md, "Start-up"). Only plain JavaScript that finds no file beside itself at run
 * time belongs here, and every package that ships only as ES modules and is imported statically
 * (the bundle is CommonJS: Node 20 cannot require() those); every other package stays in
 * node_modules (web-tree-sitter's .wasm files, ripgrep's binary, playwright-core, pg, DBOS, sharp,
 * pdfjs-dist, which is imported through src/core/import-esm.ts, …).
 */
const CLI_BUNDLED = new Set([
  '@anthropic-ai/sdk',
  '@clack/prompts',
  '@joplin/turndown-plugin-gfm',
  '@modelcontextprotocol/sdk',
  'brace-expansion',
  'commander',
  'croner',
  'diff',
  'ignore',
  'lru-cache',
  'openai',
  'picomatch',
  'turndown',
  'undici',
  // its JavaScript (its .wasm files are located through node_modules: src/shell/parser.ts)
  'web-tree-sitter',
  'zod',
]);
/** The package name of a bare import specifier (`@scope/name/sub` → `@scope/name`), else undefined. */
function packageOf(spec) {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.includes(':'))
    return undefined;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
/**
 * esbuild plugin: an import from Gantry's own sources stays external unless its package is in
 * `bundled`; imports made inside a bundled package are bundled with it (esbuild's default).
 */
function externalUnless(bundled) {
  return {
    name: 'external-unless-bundled',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const pkg = packageOf(args.path);
        if (pkg === undefined || bundled.has(pkg)) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}
/**
 * Node built-in modules the cached one-shot bundles (CACHED_ENTRIES) and the clients load on first use rather than
 * at start: a Read decision needs none of them, and loading them costs a one-shot process several
 * milliseconds of a ~25 ms budget (docs/startup.md, "What a cold decision costs"). `node:fs` and
 * `node:path` are left out (Node has loaded them before the first line runs).
 */
const LAZY_BUILTINS = [
  'child_process',
  'crypto',
  // its `createRequire` is Module's own, which the code-cache loader takes from its module object
  'module',
  'net',
  'os',
  'perf_hooks',
  'stream',
  'v8',
  'vm',
  'worker_threads',
];
const LAZY_NAMESPACE = 'gantry-lazy-builtin';
/**
 * esbuild plugin: an import of a built-in of `LAZY_BUILTINS` (with or without `node:`) becomes a
 * CommonJS module whose properties are getters that `require()` the built-in on first access. The
 * bundle keeps reading `mod.name` at each use (esbuild's interop with a CommonJS module), so nothing
 * is loaded until used, and every value is the built-in's own. The property names are the built-in's
 * own at build time (Node ≥ 20, the version the package requires).
 */
function lazyBuiltins() {
  const names = new Set(LAZY_BUILTINS);
  return {
    name: 'lazy-builtins',
    setup(b) {
      b.onResolve({ filter: /^(node:)?[a-z0-9_]+$/ }, (args) => {
        if (args.namespace === LAZY_NAMESPACE) return undefined;
        const name = args.path.replace(/^node:/, '');
        return names.has(name) ? { path: name, namespace: LAZY_NAMESPACE } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => {
        const keys = Object.keys(require(`node:${args.path}`)).filter((k) => k !== 'default');
        const props = keys
          .map(
            (k) => `  ${JSON.stringify(k)}: { enumerable: true, get: () => load()[${JSON.stringify(k)}] },`,
          )
          .join('\n');
        return {
          loader: 'js',
          contents: [
            `let loaded;`,
            `const load = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}));`,
            `module.exports = Object.defineProperties({}, {\n${props}\n});`,
          ].join('\n'),
        };
      });
    },
  };
}
/**
 * The global `performance` of the cached bundles (`define`d to this name). Node loads `perf_hooks`
 * (a few milliseconds) on the first touch of the global, and lru-cache touches it when its module is
 * evaluated, the shell analysis's budget on every Bash call. Here `now()` counts milliseconds from
 * the bundle's start with `process.hrtime`: the bundles use `performance.now()` only for durations and
 * deadlines within the process, which keep their meaning. Every other property is Node's own.
 */
const LAZY_PERFORMANCE = [
  'var __gantryPerformance = (() => {',
  '  const origin = process.hrtime.bigint();',
  '  const now = () => Number(process.hrtime.bigint() - origin) / 1e6;',
  '  return new Proxy({}, {',
  "    get: (_, k) => k === 'now' ? now : typeof performance[k] === 'function' ? performance[k].bind(performance) : performance[k],",
  '  });',
  '})();',
].join('\n');
/**
 * The warm paths' clients, CommonJS bundles of Node built-ins only (`*.cjs`): bin/gantry.js requires
 * them, so a call the resident server answers never starts the ES module loader.
 */
const CLIENT_ENTRIES = {
  'gantry-hook-client': 'src/cli/hook/hook-warm.ts',
  'gantry-check-client': 'src/cli/check-client.ts',
  'gantry-code-cache': 'src/cli/code-cache.ts',
};
/**
 * Bundles run through V8's code cache (src/cli/code-cache.ts): one CommonJS file each with its npm
 * packages, no dynamic `import()` (a script compiled by `vm` has no module loader for it), and the
 * SHA-256 of the content as the first line, the cache's key.
 */
const CACHED_ENTRIES = {
  'gantry-check-local': 'src/cli/check-entry.ts',
  'gantry-hook-cold': 'src/cli/hook/hook-cold.ts',
};
/** The start-up bundles made as one file each. */
const SINGLE_ENTRIES = {
  // src/shell/worker/entry.ts finds it beside the bundle's chunks
  'gantry-analysis-worker': 'src/shell/worker/analysis-worker.ts',
};

const notShipped = NOT_SHIPPED.map((s) => new RegExp(s));
const isShipped = (rel) => !notShipped.some((re) => re.test(rel));
const posix = (p) => p.split(path.sep).join('/');

function listSrc() {
  const files = [];
  for (const e of readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (e.isFile()) files.push(posix(path.relative(root, path.join(e.parentPath, e.name))));
  }
  return files.sort();
}

/**
 * Writes `bytes` to `file` through a temporary name in the same directory. An identical file is left
 * as it is, so an unchanged start-up bundle keeps its mtime (the hook server's socket name).
 */
function writeAtomic(file, bytes) {
  try {
    if (Buffer.from(bytes).equals(readFileSync(file))) return;
  } catch {
    // absent: write it
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Takes the build lock, waiting for another build to finish; breaks a lock older than 3 minutes. */
function lock() {
  mkdirSync(dist, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS)
          rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      sleep(100);
    }
  }
}

function unlock() {
  rmSync(LOCK, { recursive: true, force: true });
}

async function buildAll() {
  const { dirs, ...state } = sourceState(root, { withDirs: true });
  const all = listSrc().filter(isShipped);
  // The command line ships as the start-up bundles only.
  const src = all.filter((f) => !f.startsWith('src/cli/'));
  const modules = src.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const assets = src.filter((f) => !f.endsWith('.ts') && path.basename(f) !== 'README.md');
  /** Absolute paths of every file this build leaves in dist/. */
  const produced = new Set([path.join(root, STAMP_FILE)]);

  // 1. One JavaScript file per module.
  const js = await build({
    absWorkingDir: root,
    entryPoints: modules,
    outdir: 'dist',
    outbase: 'src',
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  for (const f of js.outputFiles) {
    writeAtomic(f.path, f.contents);
    produced.add(f.path);
  }

  // 2. The files modules read at run time, beside them.
  for (const a of assets) {
    const to = path.join(dist, path.relative('src', a));
    writeAtomic(to, readFileSync(path.join(root, a)));
    produced.add(to);
  }

  // 3. The start-up bundles. Bundled code resolves `new URL('./x', import.meta.url)` against
  // dist/fast/, so every chunk sits in that one directory (two levels below the package root, like
  // the modules of src/cli/), and the prompt files are copied there too (their names are unique).
  // The hook (its server and its in-process path) shares chunks; the rest of the command line has its
  // own, with its npm packages inside (CLI_BUNDLED); the in-process `gantry check` is one file, as fewer modules start faster; the clients of the warm
  // paths are one CommonJS file each, checked here to load nothing but Node built-ins.
  const bundleOptions = {
    absWorkingDir: root,
    outdir: 'dist/fast',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'warning',
  };
  const fast = [
    await build({
      ...bundleOptions,
      entryPoints: SPLIT_ENTRIES,
      splitting: true,
      chunkNames: '[name]-[hash]',
      metafile: true,
    }),
    await build({ ...bundleOptions, entryPoints: SINGLE_ENTRIES, metafile: true }),
    await build({
      ...bundleOptions,
      entryPoints: CLIENT_ENTRIES,
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      metafile: true,
      plugins: [lazyBuiltins()],
    }),
  ];
  for (const [out, meta] of Object.entries(fast[2].metafile.outputs)) {
    const outside = meta.imports.filter((i) => !i.path.startsWith('node:'));
    if (outside.length)
      throw new Error(`${out} must import Node built-ins only, not ${outside.map((i) => i.path)}`);
  }
  // The cached bundles' common options: CommonJS, `import.meta.url` from the file's name, and every
  // `import()` turned into a require() of code inside the bundle or of a CommonJS package.
  const cachedOptions = {
    ...bundleOptions,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    // the CommonJS build of the parser (its ES module build finds its files through import.meta)
    alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
    define: { 'import.meta.url': '__gantryModuleUrl' },
    banner: { js: "var __gantryModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    supported: { 'dynamic-import': false },
    metafile: true,
  };
  // The command line's bundle is read whole at every start: without comments and indentation it
  // is a third smaller, and with the bundled packages' license notes in a file beside it, it is
  // ASCII, which the loader decodes several times faster (docs/startup.md).
  const cli = await build({
    ...cachedOptions,
    packages: undefined,
    plugins: [externalUnless(CLI_BUNDLED)],
    entryPoints: CLI_ENTRY,
    minifyWhitespace: true,
    legalComments: 'external',
  });
  // Read whole at every in-process start too: without comments and indentation a third smaller,
  // which a start pays for in reading, decoding and copying the text (docs/startup.md). The bundled
  // packages' license notes go to a file beside each bundle, as for the command line's.
  const cached = await build({
    ...cachedOptions,
    entryPoints: CACHED_ENTRIES,
    packages: undefined,
    minifyWhitespace: true,
    legalComments: 'external',
    plugins: [lazyBuiltins()],
    // `import.meta.url` is read only inside functions there: made on first use (pathToFileURL is
    // the first use of Node's URL parser in the process)
    define: { 'import.meta.url': '__gantryModule.url', performance: '__gantryPerformance' },
    banner: {
      js: [
        'var __gantryModule = { get url() { return require("node:url").pathToFileURL(__filename).href; } };',
        LAZY_PERFORMANCE,
      ].join('\n'),
    },
  });
  for (const [out, meta] of Object.entries({ ...cached.metafile.outputs, ...cli.metafile.outputs })) {
    const dynamic = meta.imports.filter((i) => i.kind === 'dynamic-import');
    if (dynamic.length)
      throw new Error(`${out} must not import() at run time: ${dynamic.map((i) => i.path)}`);
  }
  const clients = new Set(fast[2].outputFiles);
  for (const f of fast.flatMap((r) => r.outputFiles)) {
    writeAtomic(f.path, clients.has(f) ? shareEsmInterop(f.contents, f.path) : f.contents);
    produced.add(f.path);
  }
  const asciiOutputs = new Set(cached.outputFiles);
  for (const f of [...cached.outputFiles, ...cli.outputFiles]) {
    if (f.path.endsWith('.LEGAL.txt')) {
      writeAtomic(f.path, f.contents);
      produced.add(f.path);
      continue;
    }
    const contents = asciiOutputs.has(f)
      ? shareEsmInterop(await asciiOnly(f.contents, f.path), f.path)
      : f.contents;
    // the cache key (src/cli/code-cache.ts): the content's hash, so a run need not hash it
    const key = createHash('sha256').update(contents).digest('hex');
    writeAtomic(f.path, Buffer.concat([Buffer.from(`// gantry-build-key: ${key}\n`), contents]));
    produced.add(f.path);
  }
  const prompts = new Map();
  for (const a of assets.filter((f) => f.endsWith('.prompt.md'))) {
    const name = path.basename(a);
    if (prompts.has(name)) throw new Error(`two prompt files named ${name}: ${prompts.get(name)} and ${a}`);
    prompts.set(name, a);
    const to = path.join(dist, 'fast', name);
    writeAtomic(to, readFileSync(path.join(root, a)));
    produced.add(to);
  }

  // 4. Type declarations.
  const declarations = modules.map((m) => path.join(dist, path.relative('src', m)).replace(/\.ts$/, '.d.ts'));
  if (!jsOnly) {
    const tsc = spawnSync(process.execPath, [tscBin(), '-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (tsc.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${tsc.status})`);
    for (const d of declarations) {
      statSync(d); // throws when tsc did not emit a declaration for a shipped module
      produced.add(d);
    }
  } else {
    // Keep the declarations of the modules that still exist; the stamp says they may be out of date.
    for (const d of declarations) produced.add(d);
  }

  // 5. Remove what this build did not produce (renamed or deleted modules, old layouts).
  removeUnproduced(dist, produced);

  // What `gantry check` and `gantry hook` run: every bundle but the command line's
  // (build-inputs.cjs `guardStaleReason` compares only these sources on their starts).
  const guardFiles = new Set();
  for (const r of [...fast, cached])
    for (const meta of Object.values(r.metafile.outputs))
      for (const input of Object.keys(meta.inputs)) if (input.startsWith('src/')) guardFiles.add(input);
  const guardDirs = {};
  for (const f of guardFiles) {
    const dir = path.posix.dirname(f);
    if (!dirs[dir]) throw new Error(`${f} is a bundle input outside the sources the build counted`);
    guardDirs[dir] = dirs[dir];
  }
  const guard = {
    files: [...guardFiles].sort(),
    dirs: guardDirs,
    extras: EXTRA_INPUTS.filter((f) => existsSync(path.join(root, f))),
  };
  writeAtomic(
    path.join(root, STAMP_FILE),
    `${JSON.stringify({ ...state, types: !jsOnly, guard }, null, 2)}\n`,
  );
}

/** The compiler's command file, from the `typescript` package's `bin` field (`tsc`, or `tsc6` in TS 6's package). */
function tscBin() {
  const manifest = require.resolve('typescript/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  const file = typeof bin === 'string' ? bin : (bin.tsc ?? Object.values(bin)[0]);
  return path.join(path.dirname(manifest), file);
}

function removeUnproduced(dir, produced) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (p === LOCK) continue;
    if (e.isDirectory()) {
      removeUnproduced(p, produced);
      if (readdirSync(p).length === 0) rmdirSync(p);
    } else if (!produced.has(p)) {
      rmSync(p, { force: true });
    }
  }
}

lock();
try {
  const needed = !args.has('--if-stale') || staleReason(root, { types: !jsOnly }) !== undefined;
  if (needed) await buildAll();
} finally {
  unlock();
}
