/**
 * The hook server vouches for its checkout's sources only while they match dist/'s stamp: an edit,
 * a new file, a removed one or a changed build input withdraws the vouch at the next request; a
 * rebuild (a new stamp) restores it; another folder, or a folder that is no checkout, gets none.
 */
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/shared-data.js';
import { createSourceVouch, type SourceVouch } from './source-vouch.js';

const buildInputs = createRequire(import.meta.url)(path.join(REPO_ROOT, 'scripts', 'build-inputs.cjs')) as {
  sourceState(root: string): { count: number; newestMtimeMs: number };
};

let root: string;
let vouch: SourceVouch | undefined;

/** Writes dist/.build-stamp.json for the sources as they are now (what a build does). */
function stamp(): void {
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist', '.build-stamp.json'), JSON.stringify(buildInputs.sourceState(root)));
}

/** Writes a file with an mtime one second later than any before (file systems with coarse mtimes). */
let clock = Date.now() / 1000;
function touch(rel: string, text = 'x'): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  clock += 1;
  utimesSync(file, clock, clock);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-vouch-')));
  mkdirSync(path.join(root, '.git'));
  mkdirSync(path.join(root, 'scripts'));
  copyFileSync(
    path.join(REPO_ROOT, 'scripts', 'build-inputs.cjs'),
    path.join(root, 'scripts', 'build-inputs.cjs'),
  );
  touch('package.json', '{}');
  touch('src/a.ts', 'export const a = 1;');
  touch('src/deep/b.ts', 'export const b = 2;');
  stamp();
  vouch = createSourceVouch(root);
});

afterEach(() => {
  vouch?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Lets the watchers' events arrive (they are delivered by the event loop). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('createSourceVouch', () => {
  it.each([
    ['src/a.ts', 'a source edited in place'],
    ['src/deep/c.ts', 'a file added in a subdirectory'],
    ['src/new-dir/d.ts', 'a file in a new directory'],
    ['package.json', 'a build input outside src/'],
  ])('current while unchanged; %s changed → not current; restamped → current (%s)', async (rel, _why) => {
    const v = vouch as SourceVouch;
    expect(await v.current(root)).toBe(true);
    expect(await v.current(root), 'asked again, nothing changed').toBe(true);
    touch(rel, 'changed');
    await settle();
    expect(await v.current(root)).toBe(false);
    stamp();
    expect(await v.current(root), 'after a rebuild').toBe(true);
  });

  it('an edit inotify does not report (through a hard link from outside the tree) is seen once the yes expired', async () => {
    vouch?.close();
    const v = createSourceVouch(root, { maxAgeMs: 100 }) as SourceVouch;
    vouch = v;
    expect(await v.current(root)).toBe(true);
    const outside = path.join(root, 'outside-link.ts');
    linkSync(path.join(root, 'src', 'a.ts'), outside);
    clock += 1;
    writeFileSync(outside, 'export const a = 2;');
    utimesSync(outside, clock, clock);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await v.current(root)).toBe(false);
  });

  it('a removed source withdraws the vouch', async () => {
    const v = vouch as SourceVouch;
    expect(await v.current(root)).toBe(true);
    unlinkSync(path.join(root, 'src', 'deep', 'b.ts'));
    await settle();
    expect(await v.current(root)).toBe(false);
  });

  it('an edit just before the request is seen without waiting (events queued first are delivered first)', async () => {
    const v = vouch as SourceVouch;
    expect(await v.current(root)).toBe(true);
    touch('src/a.ts', 'changed right before');
    expect(await v.current(root)).toBe(false);
  });

  it('another folder is never vouched for; a folder that is no checkout has no vouch', async () => {
    expect(await (vouch as SourceVouch).current(path.join(root, 'elsewhere'))).toBe(false);
    rmSync(path.join(root, '.git'), { recursive: true });
    expect(createSourceVouch(root)).toBeUndefined();
  });

  it('a stale stamp is not vouched for', async () => {
    // File ctimes come from the kernel's coarse clock (one tick is a few ms): an edit in the same
    // tick as the writes the stamp recorded carries the same ctime, which is how this test flaked in
    // CI. Let one tick pass, as it always has between a build and a later edit.
    await new Promise((resolve) => setTimeout(resolve, 25));
    touch('src/a.ts', 'edited before the server started');
    expect(await (vouch as SourceVouch).current(root)).toBe(false);
  });
});
