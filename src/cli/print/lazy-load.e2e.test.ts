/**
 * A plain `gantry -p` session (one Bash call, no MCP server, no OpenAI model, no web, no PDF, no
 * --json-schema) must not load the npm packages the command line loads on first use
 * (docs/cli-print.md, "Start-up"). The process runs with a preload that lists every CommonJS and ES
 * module file Node loaded; the bundle (dist/fast/gantry-cli.cjs) requires or imports from
 * node_modules what it left there. Packages compiled into the bundle are not visible this way.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

/** Packages loaded only on first use, each with the feature that loads it. */
const LAZY_PACKAGES: readonly [pkg: string, reason: string][] = [
  ['ajv', 'JSON Schema inputs (MCP tools) and --json-schema'],
  ['ajv-formats', 'loaded with Ajv'],
  ['pg', 'the fleet'],
  ['@dbos-inc/dbos-sdk', 'the fleet'],
  ['playwright-core', 'the WebBrowser tool'],
  ['sharp', 'images (Read of an image, screenshots)'],
  ['re2js', 'the first Grep or TaskOutput pattern'],
  ['pdfjs-dist', 'Read of PDF pages'],
  ['yaml', 'agent and skill files with frontmatter'],
  ['marked', 'the interactive renderer'],
  ['vscode-jsonrpc', 'the LSP tool'],
];

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;
beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

/**
 * Runs `gantry -p` with `args` under a preload that lists, at exit, every CommonJS file in
 * `require.cache` and every ES module file (a module `load` hook); the files, and the run.
 */
async function runListingLoaded(args: string[]) {
  const cjsList = path.join(world.root, 'cjs-loaded.txt');
  const esmList = path.join(world.root, 'esm-loaded.txt');
  const hooks = path.join(world.root, 'hooks.mjs');
  const preload = path.join(world.root, 'list-loaded.cjs');
  writeFileSync(esmList, '');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\n` +
      `export async function load(url, context, next) {\n` +
      `  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(esmList)}, url + '\\n');\n` +
      `  return next(url, context);\n}\n`,
  );
  writeFileSync(
    preload,
    `require('node:module').register(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(cjsList)}, Object.keys(require.cache).join('\\n')));\n`,
  );
  const r = await runGantry(args, {
    cwd: world.project,
    env: gantryEnv(world, fake, { NODE_OPTIONS: `--require ${preload}`, GANTRY_CODE_CACHE: undefined }),
  });
  const esm = readFileSync(esmList, 'utf8')
    .split('\n')
    .filter((u) => u !== '')
    .map((u) => fileURLToPath(u));
  return { r, loaded: [...readFileSync(cjsList, 'utf8').split('\n'), ...esm] };
}

const inPackage = (pkg: string) => (f: string) =>
  f.includes(`${path.sep}node_modules${path.sep}${pkg.split('/').join(path.sep)}${path.sep}`);

it('a plain session loads none of the lazily loaded packages', async () => {
  fake = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [reply.toolUse('Bash', { command: 'echo lazy-check' }), reply.text('Done.')],
  });
  const { r, loaded } = await runListingLoaded(['-p', 'run echo']);
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe('Done.\n');
  for (const [pkg, reason] of LAZY_PACKAGES)
    expect(loaded.filter(inPackage(pkg)), `${pkg} (${reason})`).toEqual([]);
});

it("a session with Bash calls never runs an import() (Node's ES module loader would load without its code cache after the switch to Liftoff-only)", async () => {
  fake = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [
      // the grammar loads for the Bash tool's check; a line the literal gate refuses parses too
      reply.toolUse('Bash', { command: 'echo "esm-check" | cat' }),
      reply.text('Done.'),
    ],
  });
  const list = path.join(world.root, 'builtins-loaded.txt');
  const preload = path.join(world.root, 'list-builtins.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
  );
  const r = await runGantry(['-p', 'run echo'], {
    cwd: world.project,
    env: gantryEnv(world, fake, { NODE_OPTIONS: `--require ${preload}` }),
  });
  expect(r.stdout, r.stderr).toBe('Done.\n');
  expect(JSON.stringify(fake.messageRequests[1]?.body.messages)).toContain('esm-check');
  const builtins = readFileSync(list, 'utf8').split('\n');
  expect(builtins).toContain('NativeModule child_process');
  // what an import() loads (the resolver and the loader's shell are loaded by any start)
  const esmRun = ['module_job', 'module_map', 'translators', 'load'].map(
    (m) => `NativeModule internal/modules/esm/${m}`,
  );
  expect(builtins.filter((m) => esmRun.includes(m))).toEqual([]);
});

it('the listing sees a lazily loaded package once its feature is used (--json-schema loads Ajv)', async () => {
  fake = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [reply.toolUse('StructuredOutput', { answer: 'yes' }), reply.text('Done.')],
  });
  const schema = JSON.stringify({ type: 'object', properties: { answer: { type: 'string' } } });
  const { r, loaded } = await runListingLoaded(['-p', '--json-schema', schema, 'answer']);
  expect(r.code).toBe(0);
  expect(loaded.filter(inPackage('ajv')).length).toBeGreaterThan(0);
});

it('a Read of PDF pages imports pdfjs-dist (an ES module) from inside the CommonJS bundle', async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText('page-one-text', { x: 20, y: 150, size: 12, font });
  const file = path.join(world.project, 'doc.pdf');
  writeFileSync(file, await doc.save());
  fake = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [reply.toolUse('Read', { file_path: file, pages: '1' }), reply.text('Read it.')],
  });
  const { r, loaded } = await runListingLoaded(['-p', 'read the pdf']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  // the page's text, extracted by pdfjs (a PDF sent whole would carry it only as base64)
  expect(JSON.stringify(fake.messageRequests[1]?.body.messages)).toContain('page-one-text');
  expect(loaded.filter(inPackage('pdfjs-dist')).length).toBeGreaterThan(0);
});

it.each([
  { args: ['-p'], why: '-p' },
  // the Claude Agent SDK's shape: no -p, an --output-format, stdin and stdout pipes
  { args: ['--output-format', 'json'], why: 'headless without -p, as the Agent SDK starts it' },
])(
  'the second run in the same HOME takes the code cache the first run wrote at exit ($why)',
  async ({ args }) => {
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [reply.text('One.'), reply.text('Two.')],
    });
    const env = gantryEnv(world, fake, { GANTRY_CODE_CACHE: undefined });
    const cacheDir = path.join(world.home, '.gantry', 'cache');
    const caches = () =>
      readdirSync(cacheDir)
        .filter((f) => f.startsWith('gantry-cli.cjs-'))
        .map((f) => ({ f, ino: statSync(path.join(cacheDir, f)).ino }));
    const one = await runGantry([...args, 'one'], { cwd: world.project, env });
    expect(one.code, one.stderr).toBe(0);
    const first = caches();
    expect(first).toHaveLength(1);
    // compiled under the default flags (the run turns Liftoff-only on later), so a cache of its own
    expect(first[0]?.f).toMatch(/^gantry-cli\.cjs-print-/);
    const two = await runGantry([...args, 'two'], { cwd: world.project, env });
    expect(two.code, two.stderr).toBe(0);
    // taken, not refused and remade: the same file, not replaced
    expect(caches()).toEqual(first);
  },
);
