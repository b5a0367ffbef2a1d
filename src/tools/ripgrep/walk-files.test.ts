import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type WalkOptions, walkFiles } from './walk-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-walk-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function write(files: Record<string, string>) {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
}

async function walk(options: Partial<WalkOptions> = {}) {
  const out: string[] = [];
  for await (const f of walkFiles({
    root: dir,
    respectIgnore: true,
    excludeDirs: ['.git'],
    signal: new AbortController().signal,
    ...options,
  })) {
    out.push(f);
  }
  return out;
}

describe('walkFiles (the fallback lists what ripgrep lists)', () => {
  it('yields files in ripgrep path order, hidden files included', async () => {
    await write({ 'a.txt': '', 'a/b.txt': '', B: '', '.hidden': '' });
    expect(await walk()).toEqual(['.hidden', 'B', 'a/b.txt', 'a.txt']);
  });

  it('applies .gitignore only inside a git repository', async () => {
    await write({ '.gitignore': '*.log\n', 'x.log': '', 'y.txt': '' });
    expect(await walk()).toContain('x.log');
    await mkdir(path.join(dir, '.git'));
    expect(await walk()).not.toContain('x.log');
  });

  it('applies .ignore and .rgignore without git, and a deeper file can re-include', async () => {
    await write({
      '.ignore': '*.gen\n',
      'a.gen': '',
      'sub/.ignore': '!keep.gen\n',
      'sub/keep.gen': '',
      'sub/drop.gen': '',
    });
    const files = await walk();
    expect(files).not.toContain('a.gen');
    expect(files).not.toContain('sub/drop.gen');
    expect(files).toContain('sub/keep.gen');
  });

  it("applies the parents' .gitignore when the root is a subdirectory of the repository", async () => {
    await write({ '.gitignore': 'secret.txt\n', 'pkg/secret.txt': '', 'pkg/ok.txt': '' });
    await mkdir(path.join(dir, '.git'));
    expect(await walk({ root: path.join(dir, 'pkg') })).toEqual(['ok.txt']);
  });

  it('prunes ignored directories and excluded directory names', async () => {
    await write({
      '.gitignore': 'build/\n',
      'build/out.js': '',
      '.git/HEAD': '',
      'src/.git/x': '',
      'src/a.js': '',
    });
    await mkdir(path.join(dir, '.git'), { recursive: true });
    expect(await walk()).toEqual(['.gitignore', 'src/a.js']);
  });

  it('lists ignored files when respectIgnore is false', async () => {
    await write({ '.gitignore': 'build/\n', 'build/out.js': '' });
    await mkdir(path.join(dir, '.git'));
    expect(await walk({ respectIgnore: false })).toContain('build/out.js');
  });

  it('skips symbolic links to files and directories (ripgrep without --follow)', async () => {
    await write({ 'real.txt': '', 'd/inner.txt': '' });
    await symlink(path.join(dir, 'real.txt'), path.join(dir, 'link.txt'));
    await symlink(path.join(dir, 'd'), path.join(dir, 'dlink'));
    expect(await walk()).toEqual(['d/inner.txt', 'real.txt']);
  });

  it('rejects with AbortError when aborted', async () => {
    await write({ 'a.txt': '' });
    const controller = new AbortController();
    controller.abort();
    await expect(walk({ signal: controller.signal })).rejects.toThrow(/aborted/);
  });
});
