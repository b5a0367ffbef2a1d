/**
 * System prompt assembly, memory files and the session context, on real files and a real git
 * repository in a temp directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assembleSystemPrompt, toolGuidanceSection } from './assemble.js';
import {
  environmentFacts,
  environmentSection,
  findGitRoot,
  gitSnapshot,
  localDate,
  sessionContextText,
} from './environment.js';
import { HARNESS_TEXT } from './harness.js';
import { IDENTITY_TEXT } from './identity.js';
import {
  directoriesDown,
  importTargets,
  loadMemoryFiles,
  MAX_IMPORT_DEPTH,
  MAX_MEMORY_FILE_CHARS,
  memorySection,
} from './memory.js';
import { SECURITY_SECTION_TEXT } from './security.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-prompt-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const facts = () =>
  environmentFacts({ cwd: '/work/project', model: 'claude-sonnet-5-5', env: { SHELL: '/bin/bash' } });

describe('assembleSystemPrompt', () => {
  it('default: identity block, then harness → security → tool guidance → environment → memory → append, both cached', () => {
    const blocks = assembleSystemPrompt({
      tools: [{ name: 'Bash', prompt: 'Use it wisely.' }, { name: 'Read' }],
      environment: facts(),
      memory: [{ path: '/work/project/CLAUDE.md', scope: 'project', content: 'Use tabs.', truncated: false }],
      appendSystemPrompt: 'APPENDED LAST',
    });
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toEqual({ type: 'text', text: IDENTITY_TEXT, cache_control: { type: 'ephemeral' } });
    const body = blocks[1]!.text;
    expect(blocks[1]!.cache_control).toEqual({ type: 'ephemeral' });
    const order = [
      HARNESS_TEXT.slice(0, 20),
      '# Security work',
      '# Tool guidance',
      '## Bash\nUse it wisely.',
      '# Environment',
      '# Memory',
      'Use tabs.',
      'APPENDED LAST',
    ].map((s) => body.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(body).not.toContain('## Read');
  });

  it('a custom system prompt replaces the rest but keeps the security section and the appended text', () => {
    const blocks = assembleSystemPrompt({
      systemPrompt: 'You are a release bot.',
      appendSystemPrompt: 'Extra.',
      tools: [{ name: 'Bash', prompt: 'guidance' }],
      environment: facts(),
      memory: [],
    });
    expect(blocks[0]!.text).toBe('You are a release bot.');
    expect(blocks[1]!.text).toContain(SECURITY_SECTION_TEXT);
    expect(blocks[1]!.text.endsWith('Extra.')).toBe(true);
    const all = blocks.map((b) => b.text).join('\n');
    expect(all).not.toContain(HARNESS_TEXT);
    expect(all).not.toContain('# Environment');
  });

  it('an empty custom prompt still carries the security section (the SDK sends [""] by default)', () => {
    const blocks = assembleSystemPrompt({ systemPrompt: '', tools: [], environment: facts(), memory: [] });
    expect(blocks.map((b) => b.text).join('\n')).toContain('# Security work');
  });

  it('preset with append appends, after --append-system-prompt order', () => {
    const blocks = assembleSystemPrompt({
      systemPrompt: { type: 'preset', append: 'FROM PRESET' },
      appendSystemPrompt: 'FROM FLAG',
      tools: [],
      environment: facts(),
      memory: [],
    });
    expect(blocks[1]!.text.endsWith('FROM PRESET\n\nFROM FLAG')).toBe(true);
  });

  it('is byte-stable: the same inputs give the same bytes, and no volatile facts appear', () => {
    const input = { tools: [{ name: 'Bash', prompt: 'p' }], environment: facts(), memory: [] };
    const a = JSON.stringify(assembleSystemPrompt(input));
    const b = JSON.stringify(assembleSystemPrompt(input));
    expect(a).toBe(b);
    expect(a).not.toContain(localDate(new Date()));
  });

  it('toolGuidanceSection is empty when no tool has a prompt', () => {
    expect(toolGuidanceSection([{ name: 'Read' }, { name: 'Grep', prompt: '  ' }])).toBe('');
  });
});

describe('environment', () => {
  it('environmentSection lists the stable facts', () => {
    const text = environmentSection({ ...facts(), additionalDirectories: ['/extra'] });
    expect(text).toContain('- Working directory: /work/project');
    expect(text).toContain('- Additional working directories: /extra');
    expect(text).toContain('- Shell: bash');
    expect(text).toContain('- Model: claude-sonnet-5-5');
  });

  it('git snapshot of a real repository: branch, status, recent commits; none outside a repository', async () => {
    const repo = path.join(dir, 'repo');
    mkdirSync(path.join(repo, 'sub'), { recursive: true });
    const g = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    g('init', '-q', '-b', 'main');
    g('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'first commit');
    writeFileSync(path.join(repo, 'new.txt'), 'x');
    expect(findGitRoot(path.join(repo, 'sub'))).toBe(repo);
    const snap = await gitSnapshot(path.join(repo, 'sub'));
    expect(snap).toMatchObject({ branch: 'main', mainBranch: 'main' });
    expect(snap?.status).toContain('?? ../new.txt');
    expect(snap?.recentCommits).toContain('first commit');
    const text = sessionContextText({ now: new Date(2026, 0, 2), git: snap });
    expect(text.startsWith('<system-reminder>')).toBe(true);
    expect(text).toContain("Today's date: 2026-01-02");
    expect(text).toContain('Current branch: main');
    const outside = path.join(dir, 'plain');
    mkdirSync(outside);
    expect(await gitSnapshot(outside)).toBeUndefined();
  });

  it('a repository fsmonitor hook is not run by the snapshot', async () => {
    const repo = path.join(dir, 'evil');
    mkdirSync(repo);
    const g = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    g('init', '-q');
    const marker = path.join(dir, 'fsmonitor-ran');
    const hook = path.join(dir, 'hook.sh');
    writeFileSync(hook, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    g('config', 'core.fsmonitor', hook);
    await gitSnapshot(repo);
    expect(() => execFileSync('test', ['-e', marker])).toThrow();
  });
});

describe('memory files', () => {
  it('directoriesDown walks from the root to the cwd, or gives the cwd alone', () => {
    expect(directoriesDown('/a', '/a/b/c')).toEqual(['/a', '/a/b', '/a/b/c']);
    expect(directoriesDown('/a', '/x')).toEqual(['/x']);
    expect(directoriesDown(undefined, '/x/y')).toEqual(['/x/y']);
  });

  it.each([
    ['see @docs/style.md for style', ['docs/style.md'], 'relative path'],
    ['@~/notes.md and @./x.md', ['~/notes.md', './x.md'], 'home and dot paths'],
    ['mail me at a@b.com', [], 'an e-mail address is not an import'],
    ['ping @team', [], 'a bare mention is not an import'],
    ['`@inline.md` in code', [], 'inline code is skipped'],
    ['```\n@fenced.md\n```\n@after.md', ['after.md'], 'fenced blocks are skipped'],
  ])('importTargets(%j) → %j (%s)', (text, expected, _why) => {
    expect(importTargets(text)).toEqual(expected);
  });

  it('reads user, project (root → cwd) and local files in order, with imports after their importer', () => {
    const home = path.join(dir, 'home');
    const root = path.join(dir, 'proj');
    const cwd = path.join(root, 'pkg');
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    mkdirSync(path.join(home, '.gantry'), { recursive: true });
    mkdirSync(path.join(root, '.gantry'), { recursive: true });
    mkdirSync(path.join(cwd, 'docs'), { recursive: true });
    writeFileSync(path.join(home, '.gantry', 'GANTRY.md'), 'gantry user');
    writeFileSync(path.join(home, '.claude', 'CLAUDE.md'), 'claude user');
    writeFileSync(path.join(root, 'CLAUDE.md'), 'root claude, see @pkg/docs/a.md');
    writeFileSync(path.join(root, '.gantry', 'GANTRY.md'), 'root gantry');
    writeFileSync(path.join(cwd, 'docs', 'a.md'), 'imported a');
    writeFileSync(path.join(cwd, 'AGENTS.md'), 'pkg agents');
    writeFileSync(path.join(cwd, 'CLAUDE.local.md'), 'pkg local');
    const files = loadMemoryFiles({ cwd, projectRoot: root, home });
    expect(files.map((f) => [path.relative(dir, f.path), f.scope])).toEqual([
      ['home/.gantry/GANTRY.md', 'user'],
      ['home/.claude/CLAUDE.md', 'user'],
      ['proj/CLAUDE.md', 'project'],
      ['proj/pkg/docs/a.md', 'import'],
      ['proj/.gantry/GANTRY.md', 'project'],
      ['proj/pkg/AGENTS.md', 'project'],
      ['proj/pkg/CLAUDE.local.md', 'local'],
    ]);
    const section = memorySection(files);
    expect(section).toContain(`imported by ${path.join(root, 'CLAUDE.md')}`);
    expect(section.indexOf('gantry user')).toBeLessThan(section.indexOf('pkg local'));
  });

  it('stops at the import depth limit and includes a cycle once', () => {
    const home = path.join(dir, 'home');
    mkdirSync(home);
    const cwd = path.join(dir, 'p');
    mkdirSync(cwd);
    writeFileSync(path.join(cwd, 'CLAUDE.md'), '@./f1.md');
    for (let i = 1; i <= MAX_IMPORT_DEPTH + 2; i++)
      writeFileSync(path.join(cwd, `f${i}.md`), `level ${i} @./f${i + 1}.md`);
    const chain = loadMemoryFiles({ cwd, home });
    expect(chain.map((f) => path.basename(f.path))).toEqual([
      'CLAUDE.md',
      ...Array.from({ length: MAX_IMPORT_DEPTH }, (_, i) => `f${i + 1}.md`),
    ]);
    writeFileSync(path.join(cwd, 'CLAUDE.md'), '@./a.md');
    writeFileSync(path.join(cwd, 'a.md'), 'A @./b.md');
    writeFileSync(path.join(cwd, 'b.md'), 'B @./a.md @./CLAUDE.md');
    const cycle = loadMemoryFiles({ cwd, home });
    expect(cycle.map((f) => path.basename(f.path))).toEqual(['CLAUDE.md', 'a.md', 'b.md']);
  });

  it('a symlinked duplicate is read once; a binary file is skipped; a long file is cut', () => {
    const home = path.join(dir, 'home');
    mkdirSync(home);
    const cwd = path.join(dir, 'p');
    mkdirSync(cwd);
    writeFileSync(path.join(cwd, 'CLAUDE.md'), `${'x'.repeat(MAX_MEMORY_FILE_CHARS + 10)}`);
    symlinkSync(path.join(cwd, 'CLAUDE.md'), path.join(cwd, 'AGENTS.md'));
    writeFileSync(path.join(cwd, 'CLAUDE.local.md'), 'bin\u0000ary');
    const files = loadMemoryFiles({ cwd, home });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ truncated: true });
    expect(files[0]!.content).toHaveLength(MAX_MEMORY_FILE_CHARS);
    expect(memorySection(files)).toContain('(cut:');
  });

  it('no files → no section', () => {
    expect(memorySection([])).toBe('');
  });
});
