/**
 * The analysis budget and deadline in the CLI faces (docs/analysis-budget.md): `gantry check`, the
 * guard every CLI face shares (its deadline from the option, the environment or the settings key),
 * and `gantry replay`. The padded commands here took from 20 s to over 2 minutes to decide before
 * the budget; now each is decided, a deny still denies, and what cannot be analysed asks.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCheck } from './check.js';
import { handleHook } from './hook/run-hook.js';
import { replayFiles } from './replay/replay.js';
import { createGuard, type Guard, type GuardOptions } from './shared/guard.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const savedEnv = process.env.GANTRY_ANALYSIS_DEADLINE_MS;
afterEach(() => {
  if (savedEnv === undefined) delete process.env.GANTRY_ANALYSIS_DEADLINE_MS;
  else process.env.GANTRY_ANALYSIS_DEADLINE_MS = savedEnv;
});

function world(settings: unknown = {}) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-budget-')));
  roots.push(root);
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify(settings));
  return { root, home, project };
}

async function check(command: string, mode: string) {
  const { home, project } = world();
  let stdout = '';
  const code = await runCheck(['--', command].slice(1), {
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

const PADDED_DENY = `shopt -s extglob\necho pwned >> ~/.bashrc; ls @(x)${'@(x)'.repeat(16_300)}`;
const UNANALYSABLE = `ls ${'|&'.repeat(30_000)}`;

describe('gantry check', () => {
  it('a denied write padded with valid extglob is still denied, even in bypassPermissions', async () => {
    const r = await check(PADDED_DENY, 'bypassPermissions');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('.bashrc');
    expect(r.stdout).toContain('protected');
  });

  it('padding that cannot be analysed asks in bypassPermissions, and says why', async () => {
    const r = await check(UNANALYSABLE, 'bypassPermissions');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('in every mode');
    expect(r.stdout).toMatch(/ANALYSIS_BUDGET/);
  });
});

describe('the guard’s deadline', () => {
  it('defaults to 1000 ms, and comes from the settings key, the environment, then the option', () => {
    const plain = world();
    expect(createGuard({ cwd: plain.project, home: plain.home, trust: true }).analysisDeadlineMs).toBe(1000);
    const set = world({ analysisDeadlineMs: 400 });
    expect(createGuard({ cwd: set.project, home: set.home, trust: true }).analysisDeadlineMs).toBe(400);
    process.env.GANTRY_ANALYSIS_DEADLINE_MS = '700';
    expect(createGuard({ cwd: set.project, home: set.home, trust: true }).analysisDeadlineMs).toBe(700);
    expect(
      createGuard({ cwd: set.project, home: set.home, trust: true, analysisDeadlineMs: 250 })
        .analysisDeadlineMs,
    ).toBe(250);
  });

  it('an untrusted project cannot lengthen it', () => {
    const w = world({ analysisDeadlineMs: 100_000 });
    expect(createGuard({ cwd: w.project, home: w.home, trust: false }).analysisDeadlineMs).toBe(1000);
  });
});

describe('gantry hook’s deadline comes from the calling client’s environment', () => {
  async function hookDeadline(env: Record<string, string | undefined>): Promise<number | undefined> {
    const w = world();
    let built: Guard | undefined;
    const stdin = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      cwd: w.project,
    });
    await handleHook(stdin, {
      env: { HOME: w.home, ...env },
      guard: { home: w.home, trust: true },
      makeGuard: (o: GuardOptions) => {
        built = createGuard(o);
        return built;
      },
    });
    return built?.analysisDeadlineMs;
  }

  it('the client’s GANTRY_ANALYSIS_DEADLINE_MS applies; the answering process’s own does not', async () => {
    // the resident server's environment is that of whichever client started it
    process.env.GANTRY_ANALYSIS_DEADLINE_MS = '700';
    expect(await hookDeadline({ GANTRY_ANALYSIS_DEADLINE_MS: '250' })).toBe(250);
    expect(await hookDeadline({})).toBe(1000);
  });
});

describe('gantry replay', () => {
  it('decides a transcript whose Bash calls are padded: the deny stays a deny, the rest asks', async () => {
    const { root, home } = world();
    const cwd = path.join(root, 'recorded');
    const file = path.join(root, 'session.jsonl');
    const line = (uuid: string, id: string, command: string) =>
      JSON.stringify({
        type: 'assistant',
        cwd,
        sessionId: 's1',
        uuid,
        permissionMode: 'bypassPermissions',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
        },
      });
    writeFileSync(file, `${line('u1', 'toolu_1', PADDED_DENY)}\n${line('u2', 'toolu_2', UNANALYSABLE)}\n`);
    const s = await replayFiles([file], { guard: { home, managedFiles: [] } });
    expect(s.rows).toBe(2);
    expect(s.errors).toBe(0);
    expect(s.byDecision).toEqual({ allow: 0, ask: 1, deny: 1 });
  });
});
