/**
 * The package's entry points stay small and cheap: importing one loads no native or heavy
 * dependency (sharp, pdfjs-dist, web-tree-sitter load on first use), and the root names exactly the
 * values below, so a change to the public surface is a deliberate change to this list.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as root from './index.js';
import { REPO_ROOT } from './testing/shared-data.js';

const run = promisify(execFile);

/** Packages that must not load when an entry point is imported (only when a call needs them). */
const HEAVY = ['sharp', '@img', 'pdfjs-dist', 'web-tree-sitter', 'tree-sitter-bash'];

/** A resolve hook that reports every resolved URL on stderr, one `LOADED <url>` line each. */
const RECORDER = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function resolve(s, c, next) { const r = await next(s, c); process._rawDebug("LOADED " + r.url); return r; }'
));
`;

/** Every package an import of `entry` (a file under src/) loads, by name, and how many modules of src/. */
async function packagesLoadedBy(entry: string): Promise<{ packages: Set<string>; sourceModules: number }> {
  const url = pathToFileURL(path.join(REPO_ROOT, entry)).href;
  const { stderr } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      `data:text/javascript,${encodeURIComponent(RECORDER)}`,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(url)});`,
    ],
    { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 },
  );
  const packages = new Set<string>();
  let sourceModules = 0;
  for (const line of stderr.split('\n')) {
    const m = /^LOADED .*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (m) packages.add(m[1] as string);
    else if (line.startsWith(`LOADED ${pathToFileURL(path.join(REPO_ROOT, 'src')).href}/`)) sourceModules++;
  }
  return { packages, sourceModules };
}

describe('entry points', () => {
  it.each([
    ['src/index.ts', 'gantry'],
    ['src/permissions/index.ts', 'gantry/permissions'],
    ['src/shell/index.ts', 'gantry/shell'],
    ['src/tools/index.ts', 'gantry/tools'],
    ['src/sandbox/index.ts', 'gantry/sandbox'],
    ['src/mcp/index.ts', 'gantry/mcp'],
    ['src/model/index.ts', 'gantry/model'],
    ['src/loop/index.ts', 'gantry/agent'],
  ])('importing %s (%s) loads no heavy dependency', async (entry) => {
    const { packages, sourceModules } = await packagesLoadedBy(entry);
    expect(sourceModules).toBeGreaterThan(3); // the recorder sees the entry's own modules
    expect([...packages].filter((p) => HEAVY.some((h) => p === h || p.startsWith(`${h}/`)))).toEqual([]);
  });

  it('the root exports exactly the values a host needs (and no process-wide singleton)', () => {
    expect(Object.keys(root).sort()).toEqual(
      [
        'AbortError',
        'FatalError',
        'PermissionDeniedError',
        'StreamingToolExecutor',
        'ToolError',
        'ToolExecutionError',
        'ToolInputError',
        'allowAllDecider',
        'askAllDecider',
        'assembleToolPool',
        'buildTool',
        'createBashTool',
        'createChildContext',
        'createPermissionEngine',
        'createSessionServices',
        'createToolRuntime',
        'getAllBaseTools',
        'getTools',
        'jsonSchemaInput',
        'loadSettings',
        'renderToolDefinitionsJson',
        'toolDefinition',
        'toolDefinitions',
      ].sort(),
    );
    expect(Object.keys(root)).not.toContain('backgroundTasks');
  });
});
