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
import { parseLspServers } from './lsp/config.js';

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

  it('includes LSP only when its flag is on; enabled only with a configured server', async () => {
    const off = await getAllBaseTools({ env: {} });
    const on = await getAllBaseTools({ env: { GANTRY_FEATURE_LSP: '1' } });
    expect(off.map((t) => t.name)).not.toContain('LSP');
    const lsp = on.find((t) => t.name === 'LSP');
    expect(lsp?.isEnabled()).toBe(false);
    const configured = await getAllBaseTools({
      features: { LSP: true },
      lspServers: parseLspServers(
        { sh: { command: 'x', extensionToLanguage: { '.sh': 'shellscript' } } },
        '/',
      ).servers,
    });
    expect(configured.find((t) => t.name === 'LSP')?.isEnabled()).toBe(true);
  });

  it.each([
    ['WAKEUP', ['ScheduleWakeup'], 'the self-paced loop'],
    ['CRON', ['CronCreate', 'CronDelete', 'CronList'], 'the cron tools come together'],
  ] as const)('includes the %s tools %j only when the flag is on (%s)', async (flag, names, _reason) => {
    const off = await getAllBaseTools({ env: {} });
    const on = await getAllBaseTools({ env: { [`GANTRY_FEATURE_${flag}`]: '1' } });
    for (const name of names) {
      expect(off.map((t) => t.name)).not.toContain(name);
      expect(on.map((t) => t.name)).toContain(name);
    }
    expect(on.length).toBe(off.length + names.length);
  });

  it('every tool has a unique name and no alias shadows another tool', async () => {
    const tools = await getAllBaseTools({ features: { SLEEP: true, LSP: true, WAKEUP: true, CRON: true } });
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

  describe('the scheduling tools are not even loaded when their flags are off', () => {
    let temp: { dir: string; cleanup(): Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir();
    });
    afterEach(async () => {
      await temp.cleanup();
    });

    const FOLDERS = ['/tools/schedule-wakeup/', '/tools/cron/', '/tools/scheduling/'];

    /** The registry in a fresh Node process, reporting every module it loads under FOLDERS. */
    async function probe(features: Record<string, boolean>): Promise<{ loaded: string[]; tools: string }> {
      const script = path.join(temp.dir, 'probe-scheduling.mjs');
      const hook = `export async function load(url, context, next) { if (${JSON.stringify(FOLDERS)}.some((f) => url.includes(f))) process.stdout.write('LOADED ' + url + '\\n'); return next(url, context); }`;
      await writeFile(
        script,
        [
          "import { register } from 'node:module';",
          `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));`,
          'const { getAllBaseTools } = await import(process.argv[2]);',
          'const tools = await getAllBaseTools({ features: JSON.parse(process.argv[3]), env: {} });',
          "console.log('TOOLS ' + tools.map((t) => t.name).join(','));",
        ].join('\n'),
      );
      const registry = pathToFileURL(path.join(REPO_ROOT, 'src/tools/index.ts')).href;
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', script, registry, JSON.stringify(features)],
        { cwd: REPO_ROOT },
      );
      const lines = stdout.trim().split('\n');
      return {
        loaded: lines.filter((l) => l.startsWith('LOADED ')),
        tools: lines.find((l) => l.startsWith('TOOLS ')) ?? '',
      };
    }

    it('both off: nothing under schedule-wakeup/, cron/ or scheduling/ is loaded', async () => {
      const off = await probe({ WAKEUP: false, CRON: false });
      expect(off.loaded).toEqual([]);
      expect(off.tools).not.toMatch(/ScheduleWakeup|Cron/);
    });

    it('WAKEUP on: the wake-up folder and the shared kernel load, the cron folder does not', async () => {
      const on = await probe({ WAKEUP: true, CRON: false });
      expect(on.loaded.some((l) => l.endsWith('/tools/schedule-wakeup/schedule-wakeup.tool.ts'))).toBe(true);
      expect(on.loaded.some((l) => l.includes('/tools/scheduling/'))).toBe(true);
      expect(on.loaded.filter((l) => l.includes('/tools/cron/'))).toEqual([]);
      expect(on.tools).toContain('ScheduleWakeup');
    });

    it('CRON on: the cron folder loads, the wake-up folder does not', async () => {
      const on = await probe({ WAKEUP: false, CRON: true });
      expect(on.loaded.some((l) => l.endsWith('/tools/cron/cron-tools.ts'))).toBe(true);
      expect(on.loaded.filter((l) => l.includes('/tools/schedule-wakeup/'))).toEqual([]);
      expect(on.tools).toContain('CronCreate');
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

describe('LSP with its flag off is not even loaded', () => {
  let temp: { dir: string; cleanup(): Promise<void> };
  beforeEach(async () => {
    temp = await makeTempDir();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  /**
   * Runs the registry in a fresh Node process with LSP on or off and a loader hook that reports the
   * modules of tools/lsp/ and of the JSON-RPC libraries. The hook writes with `writeSync`: hooks run
   * on their own thread, whose asynchronous stdout writes could be lost when the probe exits.
   */
  async function lspModules(state: 'on' | 'off'): Promise<{ loaded: string[]; tools: string[] }> {
    const watch = ['/tools/lsp/', '/vscode-jsonrpc/', '/vscode-languageserver-protocol/'];
    const hook = `import { writeSync } from 'node:fs'; export async function load(url, context, next) { if (${JSON.stringify(watch)}.some((w) => url.includes(w))) writeSync(1, 'LOADED ' + url + '\\n'); return next(url, context); }`;
    const script = path.join(temp.dir, 'probe-lsp.mjs');
    await writeFile(
      script,
      [
        "import { register } from 'node:module';",
        `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));`,
        'const { getAllBaseTools } = await import(process.argv[2]);',
        "const tools = await getAllBaseTools({ features: { LSP: process.argv[3] === 'on' }, env: {} });",
        "console.log('TOOLS ' + tools.map((t) => t.name).join(','));",
      ].join('\n'),
    );
    const registry = pathToFileURL(path.join(REPO_ROOT, 'src/tools/index.ts')).href;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, registry, state], {
      cwd: REPO_ROOT,
    });
    const lines = stdout.trim().split('\n');
    return {
      loaded: lines.filter((l) => l.startsWith('LOADED ')),
      tools: (lines.find((l) => l.startsWith('TOOLS ')) ?? '').slice('TOOLS '.length).split(','),
    };
  }

  it('off: neither tools/lsp/ nor vscode-jsonrpc is loaded; on: both are', async () => {
    const off = await lspModules('off');
    expect(off.loaded).toEqual([]);
    expect(off.tools).not.toContain('LSP');
    const on = await lspModules('on');
    expect(on.loaded.some((l) => l.endsWith('/tools/lsp/lsp.tool.ts'))).toBe(true);
    expect(on.loaded.some((l) => l.includes('/vscode-jsonrpc/'))).toBe(true);
    expect(on.tools).toContain('LSP');
  });
});
