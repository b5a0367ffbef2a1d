import { spawn, spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, readdir, readFile, stat, watch, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/shared-data.js';
import { isGantryTempName, removeStaleTempFiles, writeFileAtomic } from './atomic-write.js';
import { makeTempDir } from '../../testing/tool-harness.js';

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

  it('drops setuid/setgid bits, as the kernel does when a file is written', async () => {
    const file = path.join(dir, 'suid');
    await writeFile(file, 'x');
    await chmod(file, 0o4755);
    await writeFileAtomic(file, Buffer.from('y'));
    expect((await stat(file)).mode & 0o7777).toBe(0o755);
  });

  it('keeps the owner when this process may chown, else the writer owns the new file', async () => {
    const file = path.join(dir, 'owned.txt');
    await writeFile(file, 'x');
    const isRoot = process.getuid?.() === 0;
    if (isRoot) await chown(file, 4321, 4321);
    await writeFileAtomic(file, Buffer.from('y'));
    const info = await stat(file);
    expect([info.uid, info.gid]).toEqual(isRoot ? [4321, 4321] : [process.getuid?.(), process.getgid?.()]);
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

  /** A child script that writes `bytes` bytes of 'a' to `target` with writeFileAtomic. */
  async function writerScript(target: string, bytes: number): Promise<string> {
    const script = path.join(dir, 'writer.mts');
    await writeFile(
      script,
      `import { writeFileAtomic } from ${JSON.stringify(path.join(REPO_ROOT, 'src/tools/file-io/atomic-write.ts'))};\n` +
        'console.log("started");\n' +
        `await writeFileAtomic(${JSON.stringify(target)}, Buffer.alloc(${bytes}, 0x61));\n` +
        'console.log("finished");\n',
    );
    return script;
  }
  const tsx = path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs');
  /** Node with tsx's loader in the same process (the tsx CLI would run the script in a child). */
  const inProcess = (script: string) => [
    '--import',
    pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
    script,
  ];

  it('a write the kernel cuts off part-way (RLIMIT_FSIZE → EFBIG) leaves the target intact and no temp file', async () => {
    const file = path.join(dir, 'precious.txt');
    await writeFile(file, 'original content');
    const script = await writerScript(file, 4 * 1024 * 1024);
    // 256 blocks of 512 bytes = 128 KiB; Node ignores SIGXFSZ, so the write fails with EFBIG.
    const child = spawnSync(
      'bash',
      ['-c', `ulimit -f 256; exec "${process.execPath}" "${tsx}" "${script}"`],
      {
        encoding: 'utf8',
      },
    );
    expect(child.stdout).toBe('started\n');
    expect(child.stderr).toContain('EFBIG');
    expect(await readFile(file, 'utf8')).toBe('original content');
    expect(await tempFilesIn(dir)).toEqual([]);
  });

  it('a process killed while writing (SIGKILL once its temp file exists) leaves the target intact', async () => {
    const file = path.join(dir, 'precious.txt');
    await writeFile(file, 'original content');
    const script = await writerScript(file, 512 * 1024 * 1024);
    const stopWatching = new AbortController();
    const watcher = watch(dir, { signal: stopWatching.signal });
    const child = spawn(process.execPath, inProcess(script), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    for await (const event of watcher) {
      if (event.filename && isGantryTempName(event.filename)) break; // leaving the loop closes the watcher
    }
    child.kill('SIGKILL');
    stopWatching.abort();
    expect(await exited).toBe('SIGKILL');
    expect(stdout).not.toContain('finished');
    expect(await readFile(file, 'utf8')).toBe('original content');
    // The dead process's temp file is all that remains of the write (a stray hidden file, never the target).
    const left = await tempFilesIn(dir);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^\\.precious\\.txt\\.gantry-tmp-${child.pid}-[0-9a-f]{8}$`));

    // Young, it stays (a writer in another pid namespace may still own it)…
    expect(await removeStaleTempFiles(dir)).toEqual([]);
    // …and the next session writing in this directory removes it once it is old enough.
    const next = await writerScript(path.join(dir, 'other.txt'), 16);
    const r = spawnSync(process.execPath, inProcess(next), {
      encoding: 'utf8',
      env: { ...process.env, GANTRY_STALE_TEMP_MS: '0' },
    });
    expect(r.stdout).toBe('started\nfinished\n');
    expect(await tempFilesIn(dir)).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe('original content');
  });

  it('never removes the temp file of a running writer, a foreign name, or a file that is not ours', async () => {
    const live = path.join(dir, `.x.txt.gantry-tmp-${process.pid}-0123abcd`);
    const parent = path.join(dir, `.y.txt.gantry-tmp-${process.ppid}-0123abcd`);
    const lookalike = path.join(dir, '.z.txt.gantry-tmp-notapid-0123abcd');
    for (const f of [live, parent, lookalike]) await writeFile(f, 'x');
    expect(await removeStaleTempFiles(dir, 0)).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(
      [path.basename(live), path.basename(parent), path.basename(lookalike)].sort(),
    );
  });
});
