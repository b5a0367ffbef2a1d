/**
 * The work caps of one parse (src/shell/budget.ts `PARSE_BUDGET.maxNodes` / `maxProgressReports`,
 * docs/analysis-budget.md "Work caps on valid bash") through `gantry check`: a long valid command is
 * analysed only up to a prefix; what the prefix holds still denies, even in bypassPermissions, and
 * the rest asks in every mode, naming the cap.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from './check.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

async function check(command: string, mode: string, settings: unknown = {}) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-caps-')));
  roots.push(root);
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify(settings));
  let stdout = '';
  const code = await runCheck([command], {
    cwd: project,
    home,
    trust: true,
    mode,
    out: (t) => {
      stdout += t;
    },
    err: () => undefined,
  });
  return { code, stdout };
}

// ~10,000 syntax nodes of valid bash: past the node cap, under the progress cap
const PADDING = 'ls a; '.repeat(2000);

describe('gantry check on a command past the node cap', () => {
  it('a protected write at the start still denies in bypassPermissions', async () => {
    const r = await check(`echo pwned >> ~/.bashrc; ${PADDING}`, 'bypassPermissions');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('.bashrc');
  });

  it('a deny rule matching a command of the prefix still denies in bypassPermissions', async () => {
    const r = await check(`rm -rf build; ${PADDING}`, 'bypassPermissions', {
      permissions: { deny: ['Bash(rm:*)'] },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('rm');
  });

  it('otherwise asks, in bypassPermissions too, and names the cap', async () => {
    const r = await check(`echo hi; ${PADDING}`, 'bypassPermissions');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('in every mode');
    expect(r.stdout).toContain('ANALYSIS_BUDGET');
    expect(r.stdout).toContain('syntax nodes');
  });

  it('a deny rule matching only a command past the cut asks instead (the tail is not analysed)', async () => {
    const r = await check(`${PADDING}rm -rf build`, 'bypassPermissions', {
      permissions: { deny: ['Bash(rm:*)'] },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ANALYSIS_BUDGET');
  });
});
