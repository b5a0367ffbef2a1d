import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../testing/tool-harness.js';
import { type CheckedFile, openCheckedFile } from './checked-open.js';

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
