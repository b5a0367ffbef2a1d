import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, sharedDir, sharedFile } from '../../testing/shared-data.js';
import { runReplay } from './cli.js';
import { inferHome, replayFiles, summarizeInput, toPosixPath } from './replay.js';
import { listTranscriptFiles, newReadStats, readRecordedCalls } from './transcript-reader.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  temps.push(d);
  return d;
};

const isolated = () => {
  const home = tempDir('gantry-replay-home-');
  return { home, managedFiles: [] as string[] };
};

describe('helpers', () => {
  it.each([
    ['C:\\Users\\user\\x', '/c/Users/user/x', 'Windows drive path → Git Bash form'],
    ['/home/u/p', '/home/u/p', 'POSIX unchanged'],
  ])('toPosixPath(%j) = %j (%s)', (input, out, _why) => {
    expect(toPosixPath(input)).toBe(out);
  });
  it.each([
    ['/home/user/projects/x', '/home/user', 'Linux home'],
    ['/Users/user/Developer/app', '/Users/user', 'macOS home'],
    ['/c/Users/user', '/c/Users/user', 'Windows home'],
    ['/tmp/gh-issue-solver', undefined, 'no home in the path'],
  ])('inferHome(%j) = %j (%s)', (cwd, home, _why) => {
    expect(inferHome(cwd)).toBe(home);
  });
  it('summarizes long inputs on one line', () => {
    expect(summarizeInput('Bash', { command: `echo ${'x'.repeat(200)}\nls` }).length).toBe(100);
  });
});

describe('replay of the bundled example session', () => {
  it('decides every call, flags the protected write that ran, and reads the rule file', async () => {
    const dir = path.join(REPO_ROOT, 'examples', 'claude-projects');
    const s = await replayFiles(await listTranscriptFiles([dir]), {
      settingsFiles: [path.join(REPO_ROOT, 'examples', 'demo-settings.json')],
      guard: isolated(),
    });
    expect(s.rows).toBe(15);
    expect(s.disagreements.allowVsUserDenied).toEqual([]);
    expect(s.disagreements.denyVsRanFine.map((r) => r.summary)).toEqual([
      `echo "alias t='npm test'" >> ~/.zshrc`,
    ]);
    expect(s.byDecision.deny).toBeGreaterThanOrEqual(4);
  });

  it('a broken ~/.claude/settings.json turns every allow into an ask that names file:line', async () => {
    const guard = isolated();
    const file = path.join(guard.home, '.claude', 'settings.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{\n  "permissions": { "deny": ["Bash(ls:*)" }\n}\n');
    const rows: { decision: string; reason: string }[] = [];
    const s = await replayFiles(
      await listTranscriptFiles([path.join(REPO_ROOT, 'examples', 'claude-projects')]),
      {
        settingsFiles: [path.join(REPO_ROOT, 'examples', 'demo-settings.json')],
        guard,
        onCall: (r) => {
          rows.push({ decision: r.decision, reason: r.reason });
        },
      },
    );
    expect(s.rows).toBe(15);
    expect(s.byDecision.allow).toBe(0);
    const asked = rows.filter((r) => r.reason.includes(`${file}:2`));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((r) => r.decision === 'ask')).toBe(true);
    expect(s.byDecision.deny).toBeGreaterThanOrEqual(4);
  });

  it('--execute runs only allowed read-only calls, re-rooted in the workspace', async () => {
    const workspace = tempDir('gantry-ws-');
    mkdirSync(path.join(workspace, 'src'));
    writeFileSync(path.join(workspace, 'src', 'date.ts'), 'export const x = 1;\n');
    const lines: string[] = [];
    const code = await runReplay([path.join(REPO_ROOT, 'examples', 'claude-projects')], {
      settings: [path.join(REPO_ROOT, 'examples', 'demo-settings.json')],
      execute: true,
      workspace,
      json: true,
      guard: isolated(),
      out: (l) => lines.push(l),
      err: () => undefined,
    });
    expect(code).toBe(0);
    const rows = lines.slice(0, -1).map((l) => JSON.parse(l));
    const executed = rows.filter((r) => r.executed);
    expect(executed.length).toBeGreaterThan(0);
    expect(executed.every((r) => r.decision === 'allow')).toBe(true);
    const readDate = executed.find((r) => r.tool === 'Read' && r.summary.endsWith('src/date.ts'));
    expect(readDate?.executed).toEqual({
      is_error: false,
      text: expect.stringContaining('export const x = 1;'),
    });
    const readTest = executed.find((r) => r.tool === 'Read' && r.summary.endsWith('date.test.ts'));
    expect(readTest?.executed.is_error).toBe(true);
    expect(rows.find((r) => r.tool === 'Edit')?.executed).toBeUndefined();
  });

  it('usage errors exit 3', async () => {
    const err: string[] = [];
    expect(await runReplay(['/nonexistent/x.jsonl'], { err: (l) => err.push(l), out: () => undefined })).toBe(
      3,
    );
    expect(await runReplay([], { execute: true, err: (l) => err.push(l), out: () => undefined })).toBe(3);
    expect(
      await runReplay([], { home: '/nonexistent-home', err: (l) => err.push(l), out: () => undefined }),
    ).toBe(3);
    expect(
      await runReplay(['/tmp'], {
        settings: ['/nonexistent/s.json'],
        err: (l) => err.push(l),
        out: () => undefined,
      }),
    ).toBe(3);
    expect(err.length).toBe(4);
    expect(err[3]).toMatch(/does not exist/);
  });

  it('a file that is not a transcript says so on stderr instead of only "0 calls"', async () => {
    const dir = tempDir('gantry-replay-not-a-transcript-');
    const file = path.join(dir, 'notes.jsonl');
    writeFileSync(file, 'first line\nsecond line\n[1, 2]\n');
    const err: string[] = [];
    const out: string[] = [];
    const code = await runReplay([file], {
      err: (l) => err.push(l),
      out: (l) => out.push(l),
      guard: isolated(),
    });
    expect(code).toBe(0);
    expect(err).toEqual([
      `gantry replay: no tool calls found, and 3 line(s) were not JSON objects: is this a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl)?`,
    ]);
  });
});

const shared = sharedDir();
describe.skipIf(!shared)('replay of every shared transcript and agent-tool-calls.jsonl', () => {
  it('accounts for every call of every transcript (no crash, malformed lines counted)', async () => {
    const files = await listTranscriptFiles([path.join(shared as string, 'data/real/transcripts')]);
    const expectedCalls = newReadStats();
    for (const f of files) await readRecordedCalls(f, expectedCalls);
    const s = await replayFiles(files, { guard: isolated() });
    expect(s.rows).toBe(expectedCalls.calls);
    expect(s.errors).toBe(0);
    expect(s.byDecision.allow + s.byDecision.ask + s.byDecision.deny).toBe(s.rows);
  });

  it('accounts for all 4,133 normalised calls', async () => {
    const f = sharedFile('data/real/agent-tool-calls.jsonl') as string;
    const s = await replayFiles([f], { guard: isolated() });
    expect(s.rows).toBe(4133);
    expect(s.errors).toBe(0);
  });
});
