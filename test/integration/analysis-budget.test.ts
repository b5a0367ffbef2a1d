/**
 * The library path (runtime + permission engine + the real Bash tool) with commands whose analysis
 * used to take minutes (docs/analysis-budget.md): in bypassPermissions, a padded protected write is
 * still denied and nothing is written; a command that cannot be analysed is asked (here: refused
 * by the host), never run.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentText, type ToolUseBlock } from '../../src/core/index.js';
import { createPermissionEngine, loadSettings } from '../../src/permissions/index.js';
import { assembleToolPool, createToolRuntime } from '../../src/runtime/index.js';
import { getAllBaseTools } from '../../src/tools/index.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

async function session() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-budget-int-')));
  roots.push(root);
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  mkdirSync(project, { recursive: true });
  const settingsFile = path.join(root, 'settings.json');
  writeFileSync(settingsFile, JSON.stringify({ permissions: {} }));
  const settings = loadSettings({
    projectRoot: project,
    home,
    managedFiles: [],
    settingsFiles: [settingsFile],
  });
  const engine = createPermissionEngine({ settings });
  const asked: string[] = [];
  const runtime = createToolRuntime({
    tools: assembleToolPool({ builtIn: await getAllBaseTools(), isDenied: (n) => engine.isToolDenied(n) })
      .callable,
    cwd: project,
    sessionDir: path.join(root, 'session'),
    permissionMode: 'bypassPermissions',
    decide: engine.decider,
    canUseTool: async (_tool, _input, decision) => {
      asked.push(decision.reason.message);
      return { behavior: 'deny', message: `asked: ${decision.reason.message}` };
    },
  });
  const run = async (command: string) => {
    const block: ToolUseBlock = {
      type: 'tool_use',
      id: `toolu_${asked.length}_${command.length}`,
      name: 'Bash',
      input: { command },
    };
    const r = (await runtime.runToolsToCompletion([block])).results[0];
    return { isError: r?.is_error === true, text: r ? contentText(r.content) : '' };
  };
  return { home, project, run, asked };
}

describe('runtime: commands that used to stall the analysis', () => {
  it('a protected write padded with valid extglob is denied in bypassPermissions, and not written', async () => {
    const s = await session();
    const target = path.join(s.home, '.bashrc');
    const r = await s.run(`shopt -s extglob\necho pwned >> ${target}; ls @(x)${'@(x)'.repeat(16_300)}`);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/protected/i);
    expect(existsSync(target)).toBe(false);
    expect(s.asked).toEqual([]);
  });

  it('a command that cannot be analysed is asked in bypassPermissions, never run', async () => {
    const s = await session();
    const marker = path.join(s.project, 'ran');
    const r = await s.run(`touch ${marker}; ls ${'|&'.repeat(30_000)}`);
    expect(r.isError).toBe(true);
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toContain('in every mode');
    expect(existsSync(marker)).toBe(false);
  });
});
