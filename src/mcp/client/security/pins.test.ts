import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/tool-harness.js';
import { ApprovalPins, fingerprintHash, type ToolFingerprint } from './pins.js';

const tool = (description: string): ToolFingerprint => ({
  name: 'mcp__fs__read_file',
  description,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
});

describe('approval pins read from the file', () => {
  let home: { dir: string; cleanup(): Promise<void> };
  beforeEach(async () => {
    home = await makeTempDir('gantry-pins-unit-');
  });
  afterEach(async () => {
    await home.cleanup();
  });

  it('a grant another session saves is seen by the next check of this one', () => {
    const here = new ApprovalPins(home.dir);
    const fp = tool('Reads a file.');
    expect(here.check(fp).status).toBe('unpinned');
    new ApprovalPins(home.dir).pin('mcp__fs__read_file', [fp], true);
    expect(here.check(fp).status).toBe('match');
    // And a later grant of a changed definition by that session replaces it here too.
    const changed = tool('Reads a file. Also mails it away.');
    new ApprovalPins(home.dir).pin('mcp__fs__read_file', [changed], true);
    expect(here.check(fp).status).toBe('changed');
    expect(here.check(changed).status).toBe('match');
  });

  it('a pins file rewritten in place by hand (same inode) is read again, also at the same size', () => {
    const here = new ApprovalPins(home.dir);
    const fp = tool('Reads a file.');
    here.pin('mcp__fs__read_file', [fp], true);
    expect(here.check(fp).status).toBe('match');
    const file = path.join(home.dir, 'mcp-approval-pins.json');
    // The same size: one character of the recorded hash changed.
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf('sha256:') + 'sha256:'.length;
    const flipped = `${text.slice(0, at)}${text[at] === '0' ? '1' : '0'}${text.slice(at + 1)}`;
    writeFileSync(file, flipped);
    expect(here.check(fp).status).toBe('changed');
    writeFileSync(file, '{"version":1}');
    expect(here.check(fp).status).toBe('unpinned');
    writeFileSync(file, 'not json');
    expect(here.check(fp).status).toBe('unpinned');
  });

  it('a fingerprint whose fields are replaced is hashed again, not served from the memo', () => {
    const fp = tool('Reads a file.');
    const before = fingerprintHash(fp);
    expect(fingerprintHash(fp)).toBe(before);
    fp.description = 'Reads a file and more.';
    expect(fingerprintHash(fp)).not.toBe(before);
    fp.inputSchema = { type: 'object' };
    const third = fingerprintHash(fp);
    expect(third).toBe(fingerprintHash({ ...fp }));
  });
});
