import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cwdResetNote, nextCwd, startCwd } from './cwd.js';

let base: string;
let root: string;
let extra: string;
let link: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'gantry-cwd-')));
  root = path.join(base, 'project');
  extra = path.join(base, 'extra');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(path.join(base, 'project-secrets'), { recursive: true });
  await mkdir(extra, { recursive: true });
  link = path.join(base, 'link-to-project');
  await symlink(root, link);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('nextCwd', () => {
  const state = () => ({ projectRoot: root, additionalDirectories: [extra], cwd: root });
  it.each([
    [
      () => path.join(root, 'src'),
      () => path.join(root, 'src'),
      false,
      'a subdirectory of the project is kept',
    ],
    [() => extra, () => extra, false, 'an additional working directory is kept'],
    [() => '/usr', () => root, true, 'outside every allowed directory resets to the root'],
    [() => path.join(base, 'project-secrets'), () => root, true, 'a sibling sharing the prefix is outside'],
    [() => undefined, () => root, false, 'no recorded cwd (SIGKILL, exec) keeps the start directory'],
  ])('%s → %s (note: %s; %s)', (final, expected, note, _why) => {
    const decision = nextCwd({
      finalCwd: final(),
      startedIn: root,
      state: state(),
      maintainProjectDir: false,
    });
    expect(decision.cwd).toBe(expected());
    expect(decision.note).toBe(note ? cwdResetNote(root) : undefined);
  });

  it('maps a physical path back under a project root given through a symlink', () => {
    const decision = nextCwd({
      finalCwd: path.join(root, 'src'),
      startedIn: link,
      state: { projectRoot: link, additionalDirectories: [], cwd: link },
      maintainProjectDir: false,
    });
    expect(decision).toEqual({ cwd: path.join(link, 'src') });
  });

  it('always returns to the root, silently, when the project dir is maintained', () => {
    expect(
      nextCwd({
        finalCwd: path.join(root, 'src'),
        startedIn: root,
        state: state(),
        maintainProjectDir: true,
      }),
    ).toEqual({ cwd: root });
  });
});

describe('startCwd', () => {
  it('starts in the session cwd when it is an allowed directory', () => {
    expect(startCwd({ projectRoot: root, additionalDirectories: [], cwd: path.join(root, 'src') })).toEqual({
      cwd: path.join(root, 'src'),
    });
  });

  it('falls back to the project root, with a note, when the session cwd was deleted', () => {
    expect(startCwd({ projectRoot: root, additionalDirectories: [], cwd: path.join(root, 'gone') })).toEqual({
      cwd: root,
      note: cwdResetNote(root),
    });
  });
});
