/**
 * The library path end to end: real built-in tools, the real permission engine as the runtime's
 * decider, real files. What a host embedding Gantry gets.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentText, type ToolUseBlock } from '../../src/core/index.js';
import { createPermissionEngine, loadSettings } from '../../src/permissions/index.js';
import { assembleToolPool, createToolRuntime } from '../../src/runtime/index.js';
import { getAllBaseTools } from '../../src/tools/index.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function session(rules: { allow?: string[]; deny?: string[] } = {}) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-int-')));
  roots.push(root);
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  mkdirSync(project, { recursive: true });
  const sessionDir = path.join(root, 'session');
  const settingsFile = path.join(root, 'settings.json');
  writeFileSync(
    settingsFile,
    JSON.stringify({ permissions: { allow: rules.allow ?? [], deny: rules.deny ?? [] } }),
  );
  const settings = loadSettings({
    projectRoot: project,
    home,
    managedFiles: [],
    settingsFiles: [settingsFile],
  });
  const engine = createPermissionEngine({ settings, readableDirectories: [sessionDir] });
  const runtime = createToolRuntime({
    tools: assembleToolPool({
      builtIn: await getAllBaseTools(),
      isDenied: (name) => engine.isToolDenied(name),
    }).callable,
    cwd: project,
    sessionDir,
    decide: engine.decider,
    canUseTool: async (_tool, _input, decision) => ({
      behavior: 'deny',
      message: `asked: ${decision.reason.message}`,
    }),
  });
  let n = 0;
  const run = async (name: string, input: Record<string, unknown>) => {
    const block: ToolUseBlock = { type: 'tool_use', id: `toolu_int_${++n}`, name, input };
    const r = (await runtime.runToolsToCompletion([block])).results[0];
    return { isError: r?.is_error === true, text: r ? contentText(r.content) : '' };
  };
  return { home, project, run };
}

describe('runtime + permission engine + built-in tools', () => {
  it('a read-only Bash command is allowed and runs; a protected write is denied and not written', async () => {
    const s = await session();
    writeFileSync(path.join(s.project, 'a.txt'), 'hello\n');
    const ls = await s.run('Bash', { command: 'cat a.txt' });
    expect(ls).toEqual({ isError: false, text: expect.stringContaining('hello') });
    const rc = await s.run('Bash', { command: `echo evil >> ${path.join(s.home, '.bashrc')}` });
    expect(rc.isError).toBe(true);
    expect(rc.text).toMatch(/protected/i);
    expect(() => readFileSync(path.join(s.home, '.bashrc'))).toThrow();
  });

  it('a deny rule on a symlink name stops Read through that link (named and resolved paths are both checked)', async () => {
    const s = await session({ deny: ['Read(./secret-link)'] });
    writeFileSync(path.join(s.project, 'real.txt'), 'top secret\n');
    symlinkSync(path.join(s.project, 'real.txt'), path.join(s.project, 'secret-link'));
    const r = await s.run('Read', { file_path: path.join(s.project, 'secret-link') });
    expect(r.isError).toBe(true);
    expect(r.text).not.toContain('top secret');
    expect(r.text).toMatch(/deny rule Read\(\.\/secret-link\)/);
  });

  it('an ask without a host answer is refused with the reason, and the file is not written', async () => {
    const s = await session();
    const r = await s.run('Write', { file_path: path.join(s.project, 'new.txt'), content: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('asked:');
    expect(() => readFileSync(path.join(s.project, 'new.txt'))).toThrow();
  });

  it('an allow rule lets Write run', async () => {
    const s = await session({ allow: ['Write(./src/**)'] });
    mkdirSync(path.join(s.project, 'src'));
    const r = await s.run('Write', {
      file_path: path.join(s.project, 'src', 'x.ts'),
      content: 'export {};\n',
    });
    expect(r.isError).toBe(false);
    expect(readFileSync(path.join(s.project, 'src', 'x.ts'), 'utf8')).toBe('export {};\n');
  });

  it('a spilled result can be read back with Read (the session directory is readable)', async () => {
    const s = await session();
    const big = await s.run('Bash', { command: 'seq 1 20000' });
    expect(big.isError).toBe(false);
    const spilled = /(\/\S+\.(txt|json))/.exec(big.text)?.[1];
    expect(spilled).toBeDefined();
    const back = await s.run('Read', { file_path: spilled as string, offset: 19999, limit: 2 });
    expect(back.isError).toBe(false);
    expect(back.text).toContain('20000');
  });
});
