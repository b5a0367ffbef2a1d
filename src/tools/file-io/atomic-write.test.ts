import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/shared-data.js';
import { isGantryTempName, writeFileAtomic } from './atomic-write.js';
import { makeTempDir } from './test-support.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(async () => cleanup());

async function tempFilesIn(d: string): Promise<string[]> {
  return (await readdir(d)).filter(isGantryTempName);
}

describe('writeFileAtomic', () => {
  it('replaces the content and keeps the file mode', async () => {
    const file = path.join(dir, 'script.sh');
    await writeFile(file, 'old');
    await chmod(file, 0o751);
    await writeFileAtomic(file, Buffer.from('new'));
    expect(await readFile(file, 'utf8')).toBe('new');
    expect((await stat(file)).mode & 0o7777).toBe(0o751);
    expect(await tempFilesIn(dir)).toEqual([]);
  });

  it('creates parents on request', async () => {
    const file = path.join(dir, 'a/b/c.txt');
    await writeFileAtomic(file, Buffer.from('x'), { createParents: true });
    expect(await readFile(file, 'utf8')).toBe('x');
  });

  it('fails when parents are missing and not requested, leaving nothing behind', async () => {
    const file = path.join(dir, 'missing/c.txt');
    await expect(writeFileAtomic(file, Buffer.from('x'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a failed rename (target is a non-empty directory) leaves the target intact and removes the temp file', async () => {
    const target = path.join(dir, 'occupied');
    await mkdir(target);
    await writeFile(path.join(target, 'keep.txt'), 'kept');
    await expect(writeFileAtomic(target, Buffer.from('data'))).rejects.toThrow();
    expect(await readFile(path.join(target, 'keep.txt'), 'utf8')).toBe('kept');
    expect(await tempFilesIn(dir)).toEqual([]);
  });

  it('a failed temp-file creation (parent is a file) leaves the old file intact', async () => {
    const file = path.join(dir, 'plain');
    await writeFile(file, 'plain content');
    await expect(writeFileAtomic(path.join(file, 'child.txt'), Buffer.from('x'))).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
    expect(await readFile(file, 'utf8')).toBe('plain content');
  });

  it('a process killed in the middle of writing (RLIMIT_FSIZE → SIGXFSZ) never leaves the target half-written', async () => {
    const file = path.join(dir, 'precious.txt');
    await writeFile(file, 'original content');
    const script = path.join(dir, 'writer.ts');
    await writeFile(
      script,
      `import { writeFileAtomic } from ${JSON.stringify(path.join(REPO_ROOT, 'src/tools/file-io/atomic-write.ts'))};\n` +
        `await writeFileAtomic(${JSON.stringify(file)}, Buffer.alloc(4 * 1024 * 1024, 0x61));\n` +
        'console.log("finished");\n',
    );
    const tsx = path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs');
    // 256 blocks of 512 bytes = 128 KiB: the 4 MiB write is cut off by the kernel.
    const child = spawnSync(
      'bash',
      ['-c', `ulimit -f 256; exec "${process.execPath}" "${tsx}" "${script}"`],
      {
        encoding: 'utf8',
      },
    );
    expect(child.stdout).not.toContain('finished');
    expect(child.signal === 'SIGXFSZ' || child.status !== 0).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('original content');
  });
});
