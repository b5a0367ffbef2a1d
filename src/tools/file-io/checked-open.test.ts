import { appendFileSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../testing/tool-harness.js';
import type { ToolUseContext } from '../../core/index.js';
import { type CheckedFile, openCheckedFile, PathChangedError } from './checked-open.js';
import { resolveCallPath } from './resolve-path.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

async function open(file: string): Promise<CheckedFile> {
  const opened = await openCheckedFile(file);
  if (opened === 'missing') throw new Error(`${file} is missing`);
  return opened;
}

describe('CheckedFile.readAllSync', () => {
  it.each([
    ['', 'an empty file'],
    ['one line\n', 'a small file'],
    ['x'.repeat(5000), 'a file larger than the smallest buffer'],
  ])('reads %#: %s whole', async (text) => {
    const file = path.join(dir, 'f.txt');
    writeFileSync(file, text);
    const checked = await open(file);
    try {
      expect(checked.readAllSync().toString('utf8')).toBe(text);
    } finally {
      await checked.close();
    }
  });

  it('reads to the end of a file that grew after it was opened (the size from fstat is only a hint)', async () => {
    const file = path.join(dir, 'grows.txt');
    writeFileSync(file, 'first\n');
    const checked = await open(file);
    try {
      appendFileSync(file, 'second\n'.repeat(1000));
      expect(checked.readAllSync().toString('utf8')).toBe(`first\n${'second\n'.repeat(1000)}`);
    } finally {
      await checked.close();
    }
  });

  it('reads from byte 0 whatever was read before, and a second close is harmless', async () => {
    const file = path.join(dir, 'again.txt');
    writeFileSync(file, 'abc');
    const checked = await open(file);
    expect((await checked.readAll()).toString()).toBe('abc');
    expect(checked.readAllSync().toString()).toBe('abc');
    await checked.close();
    await checked.close();
    expect(() => checked.readAllSync()).toThrow();
  });
});

describe('resolveCallPath', () => {
  /** A call context whose decision named `target` (as the runtime binds it). */
  const boundTo = (target: string | undefined) =>
    ({
      getAppState: () => ({ cwd: dir }),
      ...(target === undefined
        ? {}
        : {
            permittedCall: { effects: [{ source: 'tool-input', certainty: 'known', kind: 'read', target }] },
          }),
    }) as unknown as Pick<ToolUseContext, 'getAppState' | 'permittedCall'>;

  it('resolves symlinks when the path is not the permitted target itself', () => {
    mkdirSync(path.join(dir, 'real'));
    writeFileSync(path.join(dir, 'real', 'a.txt'), 'a');
    symlinkSync('real', path.join(dir, 'link'));
    const target = path.join(dir, 'real', 'a.txt');
    for (const context of [boundTo(target), boundTo(undefined)]) {
      const p = resolveCallPath('link/a.txt', context);
      expect(p).toEqual({
        requested: 'link/a.txt',
        absolute: path.join(dir, 'link', 'a.txt'),
        resolved: target,
        viaSymlink: true,
      });
    }
  });

  it('a directory swapped for a symlink after the decision is refused by the verified open, not followed', async () => {
    const checked = path.join(dir, 'd', 'a.txt');
    mkdirSync(path.join(dir, 'd'));
    writeFileSync(checked, 'inside');
    mkdirSync(path.join(dir, 'outside'));
    writeFileSync(path.join(dir, 'outside', 'a.txt'), 'OUTSIDE');
    const p = resolveCallPath(checked, boundTo(checked));
    expect(p.resolved).toBe(checked);
    // The swap happens between the decision (and the path's resolution) and the open.
    renameSync(path.join(dir, 'd'), path.join(dir, 'd-old'));
    symlinkSync('outside', path.join(dir, 'd'));
    await expect(openCheckedFile(p.resolved, p.absolute)).rejects.toBeInstanceOf(PathChangedError);
  });
});
