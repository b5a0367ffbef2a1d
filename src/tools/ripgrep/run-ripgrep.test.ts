import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError } from '../../core/index.js';
import { loadVscodeRgPath } from './resolve-ripgrep.js';
import { runRipgrep } from './run-ripgrep.js';

let dir: string;
let rgPath: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-rg-run-'));
  rgPath = (await loadVscodeRgPath()) as string;
  await writeFile(path.join(dir, 'many.txt'), 'match line\n'.repeat(20_000));
  execFileSync('mkfifo', [path.join(dir, 'fifo')]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const signal = () => new AbortController().signal;

describe('runRipgrep', () => {
  it('streams every record and reports exit 0', async () => {
    const records: string[] = [];
    const r = await runRipgrep({
      rgPath,
      args: ['-c', '-e', 'match', '--', 'many.txt'],
      cwd: dir,
      signal: signal(),
      onRecord: (b) => {
        records.push(b);
        return true;
      },
    });
    expect(r).toMatchObject({ exitCode: 0, stopped: false, timedOut: false });
    expect(records).toEqual(['20000']);
  });

  it('stops reading and kills the process when onRecord returns false', async () => {
    let seen = 0;
    const r = await runRipgrep({
      rgPath,
      args: ['-n', '-e', 'match', '--', 'many.txt'],
      cwd: dir,
      signal: signal(),
      onRecord: () => {
        seen++;
        return false;
      },
    });
    expect(r.stopped).toBe(true);
    expect(seen).toBe(1);
  });

  it('reports exit 1 (no match) without error', async () => {
    const r = await runRipgrep({
      rgPath,
      args: ['-e', 'absent-text', '--', 'many.txt'],
      cwd: dir,
      signal: signal(),
      onRecord: () => true,
    });
    expect(r.exitCode).toBe(1);
  });

  it('kills a blocked search on abort and rejects with AbortError', async () => {
    const controller = new AbortController();
    const running = runRipgrep({
      rgPath,
      args: ['-e', 'x', '--', 'fifo'],
      cwd: dir,
      signal: controller.signal,
      onRecord: () => true,
    });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);
  });

  it('kills a blocked search at the time limit and resolves with timedOut', async () => {
    const r = await runRipgrep({
      rgPath,
      args: ['-e', 'x', '--', 'fifo'],
      cwd: dir,
      timeoutMs: 50,
      signal: signal(),
      onRecord: () => true,
    });
    expect(r).toMatchObject({ timedOut: true, exitCode: null });
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      runRipgrep({ rgPath, args: ['--version'], cwd: dir, signal: controller.signal, onRecord: () => true }),
    ).rejects.toBeInstanceOf(AbortError);
  });

  it('ignores the user ripgrep config (RIPGREP_CONFIG_PATH)', async () => {
    const config = path.join(dir, 'rgrc');
    await writeFile(config, '--ignore-case\n');
    const before = process.env.RIPGREP_CONFIG_PATH;
    process.env.RIPGREP_CONFIG_PATH = config;
    try {
      const r = await runRipgrep({
        rgPath,
        args: ['-e', 'MATCH', '--', 'many.txt'],
        cwd: dir,
        signal: signal(),
        onRecord: () => true,
      });
      expect(r.exitCode).toBe(1);
    } finally {
      if (before === undefined) delete process.env.RIPGREP_CONFIG_PATH;
      else process.env.RIPGREP_CONFIG_PATH = before;
    }
  });

  it('flags "no files were searched" so callers treat it as no match', async () => {
    const empty = await mkdtemp(path.join(dir, 'empty-'));
    const r = await runRipgrep({
      rgPath,
      args: ['-e', 'x'],
      cwd: empty,
      signal: signal(),
      onRecord: () => true,
    });
    expect(r.noFilesSearched).toBe(true);
  });

  it('decodes multi-byte characters split across output chunks', async () => {
    await writeFile(path.join(dir, 'unicode.txt'), 'é名😀 match\n'.repeat(30_000));
    const records: string[] = [];
    await runRipgrep({
      rgPath,
      args: ['--no-line-number', '-e', 'match', '--', 'unicode.txt'],
      cwd: dir,
      signal: signal(),
      onRecord: (line) => {
        records.push(line);
        return true;
      },
    });
    expect(records.length).toBe(30_000);
    expect(records.every((line) => line === 'é名😀 match')).toBe(true);
  });

  it('splits on the NUL delimiter for --files-with-matches --null', async () => {
    const records: string[] = [];
    await runRipgrep({
      rgPath,
      args: ['--files-with-matches', '--null', '-e', 'match', '--', 'many.txt'],
      cwd: dir,
      delimiter: '\0',
      signal: signal(),
      onRecord: (b) => {
        records.push(b);
        return true;
      },
    });
    expect(records).toEqual(['many.txt']);
  });

  it('hands its stdout pipe to a second process as stdin: the records reach that process, none this one', async () => {
    let second: Promise<Awaited<ReturnType<typeof runRipgrep>>> | undefined;
    const relayed: string[] = [];
    const first = await runRipgrep({
      rgPath,
      args: ['-c', '-e', 'match', '--', 'many.txt'],
      cwd: dir,
      signal: signal(),
      onRecord: () => {
        throw new Error('the handed-off output must not be read here');
      },
      handOffStdout: (stdout) => {
        second = runRipgrep({
          rgPath: '/bin/sh',
          args: ['-c', 'read n; echo "got $n"'],
          cwd: dir,
          signal: signal(),
          stdinFd: stdout,
          onRecord: (r) => {
            relayed.push(r);
            return true;
          },
        });
      },
    });
    expect(first).toMatchObject({ exitCode: 0, stdoutBytes: 0 });
    expect(await second).toMatchObject({ exitCode: 0 });
    expect(relayed).toEqual(['got 20000']);
  });
});
