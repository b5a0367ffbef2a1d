#!/usr/bin/env node
// Entry point of the `gantry` command. CommonJS (bin/package.json), so that the warm paths below
// never start Node's ES module loader: a `gantry hook` or `gantry check` call that the resident hook
// server answers costs little more than a bare `node` start. Every command runs the built code in
// dist/ (made by `npm run build`, which `npm ci` and `npm pack` run):
// - `gantry hook`: the client dist/fast/gantry-hook-client.cjs (Node built-ins only) forwards the
//   call to the server; when none answers, dist/fast/gantry-hook-cold.cjs decides it in-process
//   (run with V8's code cache, like the in-process check);
// - `gantry check`: the client dist/fast/gantry-check-client.cjs, or the in-process check
//   (dist/fast/gantry-check-local.cjs, no command-line parser, run with V8's code cache by the
//   loader the client carries) when no server answers;
// - everything else: dist/fast/gantry-cli.cjs, one CommonJS file run with V8's code cache (a cache
//   per kind of run: a headless `-p` run turns Liftoff-only on once loaded, `check` before the
//   compile), which imports ES-module-only packages through this file's own `import()`
//   (src/core/import-esm.ts).
// Run from a git checkout (a src/ folder and .git beside bin/), dist/ is first compared with the
// sources (dist/.build-stamp.json, scripts/build-inputs.cjs) and rebuilt when they changed, so an
// edit is never run stale; `check` and `hook` compare only the sources of the bundles they run, the
// command line's bundle is compared before it is loaded, and a hook call that its resident server
// answers takes the server's word (see `hookDefersCheck`). An installed package has no src/ and
// skips the comparison.
// Only `node:fs` and `node:path` at the top (`node:child_process` is loaded only to rebuild,
// `node:v8` only to set flags). What a command throws is left unhandled, so Node reports
// it and exits with code 1 — except for `gantry hook`: hosts treat a hook's exit 1 as a
// non-blocking error and run the call anyway, so a hook that cannot run (a missing bundle, a throw
// before the guard answers) blocks the call with exit 2 and the reason on stderr (the hooks
// reference of Claude Code: exit code 2 is a blocking error; Codex reads it the same way).
'use strict';
const { existsSync } = require('node:fs');

const root = `${require('node:path').dirname(__dirname)}/`;

const command = process.argv[2];
const wantsHelp = process.argv.includes('--help') || process.argv.includes('-h');
const isHookCall = command === 'hook' && !wantsHelp;

/** Ends a hook call that failed before the guard answered: exit 2 blocks the call (fail closed). */
function blockHookCall(reason) {
  process.stderr.write(`gantry hook could not decide, so the call is blocked: ${reason}\n`);
  process.exit(2);
}
if (isHookCall) {
  const message = (error) => (error instanceof Error ? error.stack || error.message : String(error));
  process.on('uncaughtException', (error) => blockHookCall(message(error)));
  process.on('unhandledRejection', (error) => blockHookCall(message(error)));
}

const fromCheckout =
  existsSync(`${root}src`) && existsSync(`${root}.git`) && existsSync(`${root}scripts/build-inputs.cjs`);
/** How much of dist/ has been compared with the sources: nothing, the guard's bundles, or all of it. */
let compared = fromCheckout ? 'nothing' : 'all';
/**
 * From a checkout: compares dist/ with the sources and rebuilds it when they changed (then true; exits
 * when the rebuild fails). `guard` compares only what `check` and `hook` run (scripts/build-inputs.cjs
 * `guardStaleReason`: the ~200 sources of their bundles, not all ~650); the command line's bundle is
 * compared before it is loaded.
 */
function ensureBuilt(scope) {
  if (compared === 'all' || (scope === 'guard' && compared === 'guard')) return false;
  const inputs = require(`${root}scripts/build-inputs.cjs`);
  const reason = scope === 'guard' ? inputs.guardStaleReason(root) : inputs.staleReason(root);
  compared = scope;
  if (!reason) return false;
  // Rebuild the JavaScript (about a second; the declarations are left to `npm run build`).
  const { spawnSync } = require('node:child_process');
  const r = spawnSync(process.execPath, [`${root}scripts/build.mjs`, '--if-stale', '--js-only'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    if (isHookCall) blockHookCall(`${reason}, and rebuilding it failed; run \`npm run build\` in ${root}`);
    process.stderr.write(
      `gantry: ${reason}, and rebuilding it failed; run \`npm run build\` in ${root}\n${r.stderr ?? ''}`,
    );
    process.exit(1);
  }
  compared = 'all';
  return true;
}

const fast = `${root}dist/fast/`;
// A hook call from a checkout leaves the comparison to the call (src/cli/hook/hook-warm.ts): the
// resident server, which watches the sources, vouches for them (src/cli/hook/source-vouch.ts), and
// only without its word are they compared here, before any answer is used. After a rebuild the
// call runs again in a new process (GANTRY_HOOK_REBUILT set: that one compares first, as below).
const hookDefersCheck =
  isHookCall &&
  fromCheckout &&
  !['0', 'off', 'false'].includes(process.env.GANTRY_HOOK_DAEMON ?? '') &&
  process.env.GANTRY_HOOK_REBUILT !== '1' &&
  existsSync(`${fast}gantry-hook.mjs`) &&
  existsSync(`${fast}gantry-hook-client.cjs`);
if (!hookDefersCheck) ensureBuilt(isHookCall || command === 'check' ? 'guard' : 'all');
/** The built file `name`, or exit naming it when it is missing (1; 2 for a hook call, which blocks). */
function built(name) {
  const file = fast + name;
  if (!existsSync(file)) {
    if (isHookCall) blockHookCall(`${file} is missing; run \`npm run build\``);
    process.stderr.write(`gantry: ${file} is missing; run \`npm run build\`\n`);
    process.exit(1);
  }
  return file;
}
/** The command line's subcommands (src/cli/main.ts `buildProgram`; bin-subcommands.test.ts keeps them equal). */
const SUBCOMMANDS = [
  'check',
  'hook',
  'replay',
  'mcp',
  'serve',
  'fleet',
  'log',
  'doctor',
  'teammate',
  'install',
  'uninstall',
];
/**
 * Whether this run turns V8's Liftoff-only mode on, as `check` (check-entry.ts) and headless agent
 * runs (src/cli/print/cli.ts) do: the same rule as src/cli/main.ts's `isAgentInvocation` and
 * `isInteractiveInvocation` (any first word that is no subcommand starts the agent, headless with
 * `-p`, `--output-format`, `--input-format`, or when stdin or stdout is not a terminal, as under
 * the Claude Agent SDK). Such a run has a code cache of its own (`print`): it compiles the bundle
 * under the default flags and switches to Liftoff-only once running (see runCommandLine).
 */
function runsLiftoffOnly(args) {
  const first = args[0];
  if (first === 'check') return true;
  if (first === undefined || first === 'help' || SUBCOMMANDS.includes(first)) return false;
  if (args.length === 1 && ['-h', '--help', '-V', '--version'].includes(first)) return false;
  const headless = (a) =>
    a === '-p' || a === '--print' || a.startsWith('--output-format') || a.startsWith('--input-format');
  return args.some(headless) || !(process.stdin.isTTY === true && process.stdout.isTTY === true);
}
/**
 * The V8 flags that undo `--liftoff-only` (it also turns wasm tier-up off). A headless run sets
 * `--liftoff-only` once its bundle is running (src/cli/print/cli.ts); at exit these restore the
 * start-up flags, so the code cache is written under the flags the next run compiles it with.
 */
const UNDO_LIFTOFF_ONLY = '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering';
/**
 * The command line (src/cli/cli-entry.ts) from its CommonJS bundle, with V8's code cache; the cache
 * is written at exit when there was none (the functions the run compiled are then in it too).
 * `underLiftoff`: the caller already set `--liftoff-only` (the in-process check, for help or a
 * malformed call). A headless agent run compiles the bundle under the default flags and switches
 * to Liftoff-only itself after its modules are loaded: Node's built-in modules carry a code cache
 * made under the default flags, which V8 refuses once any flag changed, so every built-in loaded
 * after the switch is compiled from source.
 */
function runCommandLine(underLiftoff = false) {
  ensureBuilt('all');
  const argv = process.argv;
  const v8 = require('node:v8');
  const variant = underLiftoff ? 'liftoff' : runsLiftoffOnly(argv.slice(2)) ? 'print' : 'default';
  const flagsTag = v8.cachedDataVersionTag();
  globalThis[Symbol.for('gantry.importEsm')] = (specifier) => import(specifier);
  const bundle = require(built('gantry-code-cache.cjs')).requireWithCodeCache(built('gantry-cli.cjs'), {
    variant,
  });
  process.once('exit', () => {
    // a cache made under other flags than the compile's would be refused by the next run
    if (v8.cachedDataVersionTag() !== flagsTag) v8.setFlagsFromString(UNDO_LIFTOFF_ONLY);
    if (v8.cachedDataVersionTag() === flagsTag) bundle.saveCache();
  });
  return bundle.exports.runCli(argv);
}

/** dist/fast/gantry-check-client.cjs, once a `check` loaded it. */
let checkClient;
/**
 * The in-process check. Its V8 flags (src/cli/check-entry.ts `CHECK_V8_FLAGS`) are set before the
 * bundle is compiled: V8 takes a code cache only under the flags it was made with. A command line
 * the literal gate admits (`hint.mayParseShell` false, src/cli/check-client.ts `localCheckHint`)
 * compiles no WebAssembly, so it runs under Node's flags, without loading `node:v8`, with a code
 * cache of its own (`default`); every other check runs Liftoff-only with its cache (no variant).
 */
async function checkInProcess(hint) {
  const liftoff = hint?.mayParseShell !== false;
  if (liftoff) require('node:v8').setFlagsFromString('--liftoff-only');
  // the check's client carries the code-cache loader (src/cli/check-client.ts); a client from
  // before that (never shipped with this file, but cheap to allow) has the loader beside it
  const loader = checkClient.requireWithCodeCache ? checkClient : require(built('gantry-code-cache.cjs'));
  const bundle = loader.requireWithCodeCache(
    built('gantry-check-local.cjs'),
    liftoff ? {} : { variant: 'default' },
  );
  const checked = await bundle.exports.runLocalCheck({ v8FlagsSet: true });
  bundle.saveCache();
  if (checked) return;
  // help, version or a malformed invocation: the full command line reports it (Liftoff-only, as a
  // check always ran before; never reached without the flag, as such an invocation is no literal check)
  if (!liftoff) require('node:v8').setFlagsFromString('--liftoff-only');
  await runCommandLine(true);
}

/**
 * Tools whose decision never parses a shell command, so compiles no WebAssembly: their in-process
 * hook call sets no V8 flag and loads no `node:v8` (which brings Node's stream modules with it). A
 * tool missing here only costs the flag; one wrongly here would only make a grammar compile slower.
 */
const NO_SHELL_TOOLS = new Set([
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'LS',
  'TodoWrite',
  'WebFetch',
  'WebSearch',
]);
/** Whether the hook input may name a tool whose decision parses a shell command (see NO_SHELL_TOOLS). */
function mayParseShell(stdin) {
  const tool = /"tool_name"\s*:\s*"([A-Za-z]+)"/.exec(stdin)?.[1];
  return tool === undefined || !NO_SHELL_TOOLS.has(tool);
}
/**
 * The in-process hook path (src/cli/hook/hook-cold.ts), loaded once the call is known: a call that
 * may parse a shell command runs Liftoff-only (hook-cold.ts), with the flag set before the bundle is
 * compiled, as V8 takes a code cache only under the flags it was made with; the others run under
 * Node's flags. One code cache per flag set; it is written once the call has been answered.
 */
function hookInProcess() {
  return {
    async decideInProcess(call) {
      const liftoff = mayParseShell(call.stdin);
      if (liftoff) require('node:v8').setFlagsFromString('--liftoff-only');
      const bundle = require(built('gantry-code-cache.cjs')).requireWithCodeCache(
        built('gantry-hook-cold.cjs'),
        {
          variant: liftoff ? 'liftoff' : 'default',
        },
      );
      try {
        await bundle.exports.decideInProcess({ ...call, v8FlagsSet: true });
      } finally {
        bundle.saveCache();
      }
    },
  };
}

/** A deferred comparison of a hook call (see `hookDefersCheck`): rebuilt → the call runs again in a new process. */
const checkoutCall = {
  root,
  ensureCurrent(stdin) {
    if (!ensureBuilt('guard')) return;
    const { spawnSync } = require('node:child_process');
    const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      input: stdin,
      stdio: ['pipe', 'inherit', 'inherit'],
      env: { ...process.env, GANTRY_HOOK_REBUILT: '1' },
    });
    if (r.status === null) blockHookCall(`the call run again after a rebuild ended without an exit code`);
    process.exit(r.status);
  },
};

if (isHookCall) {
  const hookBundle = built('gantry-hook.mjs');
  require(built('gantry-hook-client.cjs')).runHookCall(
    process.argv.slice(3),
    hookBundle,
    hookInProcess,
    hookDefersCheck ? checkoutCall : undefined,
  );
} else if (command === 'check') {
  const hookBundle = built('gantry-hook.mjs');
  checkClient = require(built('gantry-check-client.cjs'));
  checkClient.runCheckClient(process.argv.slice(3), hookBundle, checkInProcess);
} else {
  runCommandLine();
}
