/**
 * The package as a user installs it: `npm pack`, the tarball installed into a scratch project
 * without dev dependencies (offline, from the npm cache `npm ci` filled, at the versions of the
 * repository's lockfile), then
 * - plain Node ESM imports every entry point and runs a Bash and a Read call through the runtime
 *   with the permission engine deciding, and a call the engine refuses;
 * - TypeScript type-checks a consumer against the installed declarations (theirs checked too);
 * - `npx gantry check -- 'git status'` and `gantry hook` answer from the installed bin.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NPM_ENV = {
  ...process.env,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let root: string;
let scratch: string;
let project: string;

interface LockEntry {
  dev?: boolean;
  link?: boolean;
  [k: string]: unknown;
}

/** The scratch project's lockfile: the tarball plus the repository's locked run-time dependency tree. */
function scratchLock(tarball: string): unknown {
  const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
  const spec = `file:${path.relative(scratch, tarball)}`;
  const packages: Record<string, unknown> = {
    '': { name: 'scratch', dependencies: { gantry: spec } },
    'node_modules/gantry': {
      version: pkg.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [k, v] of Object.entries(lock.packages)) if (k !== '' && !v.dev && !v.link) packages[k] = v;
  return { name: 'scratch', lockfileVersion: 3, requires: true, packages };
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-pack-')));
  scratch = path.join(root, 'scratch');
  project = path.join(root, 'project');
  mkdirSync(scratch);
  mkdirSync(project);
  // The same dist/ `npm pack` would build (its prepare script), without building twice when current.
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', root], { cwd: REPO, env: NPM_ENV });
  const tarball = path.join(root, readdirSync(root).find((f) => f.endsWith('.tgz')) as string);
  writeFileSync(
    path.join(scratch, 'package.json'),
    JSON.stringify({
      name: 'scratch',
      private: true,
      type: 'module',
      dependencies: { gantry: `file:${path.relative(scratch, tarball)}` },
    }),
  );
  writeFileSync(path.join(scratch, 'package-lock.json'), JSON.stringify(scratchLock(tarball)));
  await run('npm', ['ci', '--omit=dev'], { cwd: scratch, env: NPM_ENV, maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(path.join(project, 'hello.txt'), 'hello from the project\n');
}, 300_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs a module in the scratch project with plain Node (no loader). */
async function node(file: string, source: string, args: string[] = []): Promise<string> {
  writeFileSync(path.join(scratch, file), source);
  const { stdout } = await run(process.execPath, [file, ...args], {
    cwd: scratch,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

const CONSUMER_ESM = `
import { createPermissionEngine, createToolRuntime, getTools, loadSettings, toolDefinitions } from 'gantry';
import * as permissions from 'gantry/permissions';
import * as shell from 'gantry/shell';
import * as tools from 'gantry/tools';
import * as sandbox from 'gantry/sandbox';
import * as mcp from 'gantry/mcp';
import * as model from 'gantry/model';
import * as agent from 'gantry/agent';

const project = process.argv[2];
const home = process.argv[3];
const settings = loadSettings({ projectRoot: project, home, managedFiles: [] });
const engine = createPermissionEngine({ settings });
const list = await getTools();
const runtime = createToolRuntime({
  tools: list,
  cwd: project,
  decide: engine.decider,
  canUseTool: async (_tool, _input, decision) => ({ behavior: 'deny', message: 'refused: ' + decision.reason.message }),
});
const { results } = await runtime.runToolsToCompletion([
  { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat hello.txt' } },
  { type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: project + '/hello.txt' } },
  { type: 'tool_use', id: 'toolu_3', name: 'Write', input: { file_path: project + '/new.txt', content: 'x' } },
]);
const text = (c) => (typeof c === 'string' ? c : c.map((b) => b.text ?? '').join(''));
console.log(JSON.stringify({
  results: results.map((r) => ({ id: r.tool_use_id, isError: r.is_error === true, text: text(r.content) })),
  definitions: toolDefinitions(list).map((d) => d.name),
  subpaths: {
    permissions: typeof permissions.createPermissionEngine,
    shell: typeof shell.analyzeCommandAsync,
    tools: typeof tools.ReadTool.call,
    sandbox: typeof sandbox.createSandboxManager,
    mcp: typeof mcp.createGantryMcpServer,
    model: typeof model.createModelClient,
    agent: typeof agent.createAgent,
  },
}));
`;

const CONSUMER_TS = `
import { createPermissionEngine, createToolRuntime, getTools, loadSettings, type PermissionMode, type TurnResult } from 'gantry';
import { describeRule, type LoadedSettings } from 'gantry/permissions';
import { analyzeCommandAsync, type CommandAnalysis } from 'gantry/shell';
import { type BashOutput, ReadTool, type ReadOutput } from 'gantry/tools';
import { createSandboxManager } from 'gantry/sandbox';
import { createGantryMcpServer } from 'gantry/mcp';
import { createModelClient } from 'gantry/model';
import { createAgent } from 'gantry/agent';

const settings: LoadedSettings = loadSettings({ projectRoot: '/p' });
const engine = createPermissionEngine({ settings });
const runtime = createToolRuntime({ tools: await getTools(), cwd: '/p', decide: engine.decider });
const turn: TurnResult = await runtime.runToolsToCompletion([]);
const first: string = turn.results.map((r) => r.tool_use_id).join();
const analysis: CommandAnalysis = await analyzeCommandAsync('ls', { cwd: '/p', home: '/h' });
const mode: PermissionMode = 'acceptEdits';
// @ts-expect-error: permission modes are a closed set (the declarations are real types, not any)
const wrong: PermissionMode = 'sometimes';
const out = (o: BashOutput | ReadOutput) => o;
export { analysis, createGantryMcpServer, createAgent, createModelClient, createSandboxManager, describeRule, first, mode, out, ReadTool, wrong };
`;

describe('the packed package, installed without dev dependencies', () => {
  it('installs no dev tool (tsx, typescript, esbuild) and ships no TypeScript source', () => {
    for (const dev of ['tsx', 'typescript', 'esbuild', 'vitest']) {
      expect(existsSync(path.join(scratch, 'node_modules', dev))).toBe(false);
    }
    const installed = path.join(scratch, 'node_modules/gantry');
    const files = readdirSync(installed, { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => /\.test\.|test-support|(^|\/)testing\//.test(f))).toEqual([]);
    expect(files).toContain(path.join('dist', 'index.d.ts'));
  });

  it('plain Node ESM: every entry point imports; Bash and Read run through the runtime, the engine refuses a write', async () => {
    const home = path.join(root, 'home');
    mkdirSync(home, { recursive: true });
    const out = JSON.parse(await node('consumer.mjs', CONSUMER_ESM, [project, home])) as {
      results: Array<{ id: string; isError: boolean; text: string }>;
      definitions: string[];
      subpaths: Record<string, string>;
    };
    expect(out.results[0]).toEqual({
      id: 'toolu_1',
      isError: false,
      text: expect.stringContaining('hello from the project'),
    });
    expect(out.results[1]).toEqual({
      id: 'toolu_2',
      isError: false,
      text: expect.stringContaining('hello from the project'),
    });
    expect(out.results[2]).toMatchObject({
      id: 'toolu_3',
      isError: true,
      text: expect.stringContaining('refused:'),
    });
    expect(existsSync(path.join(project, 'new.txt'))).toBe(false);
    expect(out.definitions).toEqual(
      expect.arrayContaining(['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep']),
    );
    expect(Object.values(out.subpaths)).toEqual(Array(7).fill('function'));
  });

  it('plain Node ESM: importing the root loads no native or heavy dependency', async () => {
    const recorder = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, next) { const r = await next(s, c); process._rawDebug("LOADED " + r.url); return r; }'));`;
    writeFileSync(path.join(scratch, 'recorder.mjs'), recorder);
    writeFileSync(path.join(scratch, 'import-root.mjs'), "await import('gantry');\n");
    const r = spawnSync(process.execPath, ['--import', './recorder.mjs', 'import-root.mjs'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const loaded = r.stderr.split('\n').filter((l) => l.startsWith('LOADED '));
    expect(loaded.some((l) => l.includes('/node_modules/gantry/dist/index.js'))).toBe(true);
    expect(
      loaded.filter((l) =>
        /\/node_modules\/(sharp|@img|pdfjs-dist|web-tree-sitter|tree-sitter-bash)\//.test(l),
      ),
    ).toEqual([]);
  });

  it('TypeScript type-checks a consumer against the installed declarations', async () => {
    writeFileSync(path.join(scratch, 'consumer.ts'), CONSUMER_TS);
    writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          rootDir: '.',
          types: ['node'],
          typeRoots: [path.join(REPO, 'node_modules/@types')],
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }),
    );
    const manifest = JSON.parse(
      readFileSync(path.join(REPO, 'node_modules/typescript/package.json'), 'utf8'),
    ) as {
      bin: Record<string, string>;
    };
    const tsc = path.join(REPO, 'node_modules/typescript', Object.values(manifest.bin)[0] as string);
    const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: scratch, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it("npx gantry check -- 'git status' answers ALLOW from the installed bin", async () => {
    const { stdout } = await run('npx', ['gantry', 'check', '--cwd', project, '--', 'git status'], {
      cwd: scratch,
      env: { ...NPM_ENV, HOME: path.join(root, 'home') },
    });
    expect(stdout).toMatch(/^ALLOW\s+Bash git status/);
  });

  it('gantry hook answers a PreToolUse call from the installed bin', () => {
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd: project,
      permission_mode: 'default',
      tool_use_id: 't',
      tool_name: 'Read',
      tool_input: { file_path: path.join(project, 'hello.txt') },
    });
    const r = spawnSync(process.execPath, [path.join(scratch, 'node_modules/gantry/bin/gantry.js'), 'hook'], {
      cwd: scratch,
      input: payload,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: path.join(root, 'home'),
        GANTRY_HOOK_DAEMON: '0',
        GANTRY_HOOK_LOG: 'off',
      },
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });
  });
});
