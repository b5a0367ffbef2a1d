import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedGuard, stamp } from './hook-daemon.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('cachedGuard', () => {
  it('a managed drop-in file created while the server runs applies at the next call', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gantry-cached-guard-'));
    const home = path.join(dir, 'home');
    const project = path.join(dir, 'project');
    const managed = path.join(dir, 'etc', 'managed-settings.json');
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    const options = { cwd: project, home, managedFiles: [managed] };
    const read = { file_path: path.join(project, 'notes.txt') };

    const before = await cachedGuard(options).check('Read', read, { hooks: false });
    expect(before.detailed.decision.behavior).toBe('allow');

    // The cold path lists `<name>.d/*.json` at every call; the warm one must see the new file too.
    mkdirSync(path.join(dir, 'etc', 'managed-settings.d'), { recursive: true });
    writeFileSync(
      path.join(dir, 'etc', 'managed-settings.d', '10-deny.json'),
      JSON.stringify({ permissions: { deny: ['Read(//**/notes.txt)'] } }),
    );
    const after = await cachedGuard(options).check('Read', read, { hooks: false });
    expect(after.detailed.decision.behavior).toBe('deny');
  });
});

describe('stamp', () => {
  it('absent files and paths through a file are "-"; a present one is mtime:size and changes when it is edited', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gantry-stamp-'));
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, '{}');
    const st = statSync(file);
    const files = [file, path.join(dir, 'missing.json'), path.join(file, 'under-a-file.json'), dir];
    const before = stamp(files);
    expect(before.split('|')).toEqual([`${st.mtimeMs}:2`, '-', '-', expect.stringMatching(/^[\d.]+:\d+$/)]);
    writeFileSync(file, '{"permissions":{}}');
    utimesSync(file, st.atime, new Date(st.mtimeMs + 5000));
    expect(stamp(files)).not.toBe(before);
    expect(stamp([])).toBe('');
  });
});
