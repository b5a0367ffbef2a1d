/**
 * The registry: feature flags (env or config), dynamic import so a disabled tool's module is never
 * loaded, isEnabled filtering.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../core/index.js';
import { makeTempDir } from '../testing/runtime-fixtures.js';
import { REPO_ROOT } from '../testing/shared-data.js';
import { type FeatureFlag, feature, filterEnabledTools, getAllBaseTools, getTools } from './index.js';

const run = promisify(execFile);

function tool(name: string, extra: Record<string, unknown> = {}) {
  return buildTool({
    name,
    description: name,
    inputSchema: z.strictObject({}),
    async *call() {
      return { data: '' };
    },
    ...extra,
  });
}

describe('feature()', () => {
  it.each([
    [{ env: { GANTRY_FEATURE_SLEEP: '1' } }, true, 'env 1 turns it on'],
    [{ env: { GANTRY_FEATURE_SLEEP: 'true' } }, true, 'env true turns it on'],
    [{ env: { GANTRY_FEATURE_SLEEP: '0' } }, false, 'env 0 is off'],
    [{ env: { GANTRY_FEATURE_SLEEP: 'yes' } }, false, 'anything else is off'],
    [{ env: {} }, false, 'unset is off'],
    [{ env: { GANTRY_FEATURE_SLEEP: '1' }, features: { SLEEP: false } }, false, 'config wins over env (off)'],
    [{ env: {}, features: { SLEEP: true } }, true, 'config wins over env (on)'],
  ])('%j → %s (%s)', (config, expected, _reason) => {
    expect(feature('SLEEP', config)).toBe(expected);
  });
});

describe('getAllBaseTools', () => {
  it('includes Sleep only when its flag is on', async () => {
    const off = await getAllBaseTools({ env: {} });
    const on = await getAllBaseTools({ env: { GANTRY_FEATURE_SLEEP: '1' } });
    expect(off.map((t) => t.name)).not.toContain('Sleep');
    expect(on.map((t) => t.name)).toContain('Sleep');
    expect(on.length).toBe(off.length + 1);
  });

  it('every tool has a unique name and no alias shadows another tool', async () => {
    const tools = await getAllBaseTools({ features: { SLEEP: true } });
    const names = tools.flatMap((t) => [t.name, ...t.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });

  describe('a disabled tool is not even loaded', () => {
    let temp: { dir: string; cleanup(): Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir();
    });
    afterEach(async () => {
      await temp.cleanup();
    });

    /** Runs the registry in a fresh Node process with a loader hook that reports every module under tools/sleep/. */
    async function loadedModules(flag: 'on' | 'off'): Promise<{ loaded: string[]; tools: string }> {
      const script = path.join(temp.dir, 'probe.mjs');
      await writeFile(
        script,
        [
          "import { register } from 'node:module';",
          `register('data:text/javascript,' + encodeURIComponent("export async function load(url, context, next) { if (url.includes('/tools/sleep/')) process.stdout.write('LOADED ' + url + '\\\\n'); return next(url, context); }"));`,
          'const { getAllBaseTools } = await import(process.argv[2]);',
          "const tools = await getAllBaseTools({ features: { SLEEP: process.argv[3] === 'on' }, env: {} });",
          "console.log('TOOLS ' + tools.map((t) => t.name).join(','));",
        ].join('\n'),
      );
      const registry = pathToFileURL(path.join(REPO_ROOT, 'src/tools/index.ts')).href;
      const { stdout } = await run(process.execPath, ['--import', 'tsx', script, registry, flag], {
        cwd: REPO_ROOT,
      });
      const lines = stdout.trim().split('\n');
      return {
        loaded: lines.filter((l) => l.startsWith('LOADED ')),
        tools: lines.find((l) => l.startsWith('TOOLS ')) ?? '',
      };
    }

    it('flag off: no module under tools/sleep/ is loaded; flag on: it is', async () => {
      const off = await loadedModules('off');
      expect(off.loaded).toEqual([]);
      expect(off.tools).not.toContain('Sleep');
      const on = await loadedModules('on');
      expect(on.loaded.some((l) => l.endsWith('/tools/sleep/sleep.tool.ts'))).toBe(true);
      expect(on.tools).toContain('Sleep');
    });
  });
});

describe('filterEnabledTools', () => {
  it('drops disabled tools and tools whose isEnabled throws', () => {
    const tools = [
      tool('On'),
      tool('Off', { isEnabled: () => false }),
      tool('Broken', {
        isEnabled: () => {
          throw new Error('no');
        },
      }),
    ];
    expect(filterEnabledTools(tools).map((t) => t.name)).toEqual(['On']);
  });
});

describe('getTools', () => {
  it('lists the enabled built-ins (deny rules are the tool pool’s: src/runtime/tool-pool.ts)', async () => {
    expect((await getTools({ features: { SLEEP: true } })).map((t) => t.name)).toContain('Sleep');
    expect((await getTools({ features: { SLEEP: false } })).map((t) => t.name)).not.toContain('Sleep');
  });
});

describe('conditional tools other than Sleep are not loaded while their flag is off', () => {
  let temp: { dir: string; cleanup(): Promise<void> };
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  /** Runs the registry in a fresh Node process and reports the modules loaded under `tools/<folder>/`. */
  async function probe(folder: string, flag: FeatureFlag, on: boolean) {
    const script = path.join(temp.dir, 'probe-flag.mjs');
    await writeFile(
      script,
      [
        "import { register } from 'node:module';",
        `register('data:text/javascript,' + encodeURIComponent("export async function load(url, context, next) { if (url.includes('/tools/${folder}/')) process.stdout.write('LOADED ' + url + '\\\\n'); return next(url, context); }"));`,
        'const { getAllBaseTools } = await import(process.argv[2]);',
        `const tools = await getAllBaseTools({ features: { ${flag}: process.argv[3] === 'on' }, env: {} });`,
        "console.log('TOOLS ' + tools.map((t) => t.name).join(','));",
      ].join('\n'),
    );
    const registry = pathToFileURL(path.join(REPO_ROOT, 'src/tools/index.ts')).href;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, registry, on ? 'on' : 'off'], {
      cwd: REPO_ROOT,
    });
    const lines = stdout.trim().split('\n');
    return {
      loaded: lines.filter((l) => l.startsWith('LOADED ')),
      tools: (lines.find((l) => l.startsWith('TOOLS ')) ?? '').slice(6).split(','),
    };
  }

  it.each([
    ['worktree', 'WORKTREE', ['EnterWorktree', 'ExitWorktree']],
    ['web-browser', 'BROWSER', ['WebBrowser']],
  ] as const)('tools/%s/ behind %s', async (folder, flag, names) => {
    const off = await probe(folder, flag, false);
    expect(off.loaded).toEqual([]);
    for (const name of names) expect(off.tools).not.toContain(name);
    const on = await probe(folder, flag, true);
    expect(on.loaded.length).toBeGreaterThan(0);
    for (const name of names) expect(on.tools).toContain(name);
  });
});

describe('the MONITOR flag', () => {
  let temp: { dir: string; cleanup(): Promise<void> };
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it('adds Monitor only when on', async () => {
    const off = await getAllBaseTools({ env: {} });
    const on = await getAllBaseTools({ env: { GANTRY_FEATURE_MONITOR: '1' } });
    expect(off.map((t) => t.name)).not.toContain('Monitor');
    expect(on.map((t) => t.name)).toContain('Monitor');
    expect(on.length).toBe(off.length + 1);
  });

  it('flag off: no module under tools/monitor/ (nor its port wiring, nor the ws package) is evaluated; flag on: they are', async () => {
    const script = path.join(temp.dir, 'probe-monitor.mjs');
    await writeFile(
      script,
      [
        "import { register } from 'node:module';",
        `register('data:text/javascript,' + encodeURIComponent("export async function load(url, context, next) { if (url.includes('/tools/monitor') || url.includes('/node_modules/ws/')) process.stdout.write('LOADED ' + url + '\\\\n'); return next(url, context); }"));`,
        'const { getAllBaseTools } = await import(process.argv[2]);',
        "const tools = await getAllBaseTools({ features: { MONITOR: process.argv[3] === 'on' }, env: {} });",
        "console.log('TOOLS ' + tools.map((t) => t.name).join(','));",
      ].join('\n'),
    );
    const registry = pathToFileURL(path.join(REPO_ROOT, 'src/tools/index.ts')).href;
    const probe = async (flag: 'on' | 'off') => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', script, registry, flag], {
        cwd: REPO_ROOT,
      });
      const lines = stdout.trim().split('\n');
      return {
        loaded: lines.filter((l) => l.startsWith('LOADED ')),
        tools: lines.find((l) => l.startsWith('TOOLS ')) ?? '',
      };
    };
    const off = await probe('off');
    expect(off.loaded).toEqual([]);
    expect(off.tools).not.toContain('Monitor');
    const on = await probe('on');
    expect(on.loaded.some((l) => l.endsWith('/tools/monitor/monitor.tool.ts'))).toBe(true);
    expect(on.loaded.some((l) => l.endsWith('/tools/monitor-ports.ts'))).toBe(true);
    expect(on.loaded.some((l) => l.includes('/node_modules/ws/'))).toBe(true);
    expect(on.tools).toContain('Monitor');
  });
});
