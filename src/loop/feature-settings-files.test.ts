/**
 * `features` in settings files: the highest-precedence file that names a flag decides it; an
 * untrusted project file may switch a flag off, never on; bad values and unknown names are warnings.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../permissions/settings/load.js';
import { readFeatureSettings } from './feature-settings-files.js';

let root: string;
let project: string;
let home: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-features-')));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  mkdirSync(path.join(project, '.gantry'), { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function read(projectFeatures: unknown, flagFeatures: unknown, trust: boolean) {
  writeFileSync(
    path.join(project, '.gantry', 'settings.json'),
    JSON.stringify({ features: projectFeatures }),
  );
  const flagFile = path.join(root, 'flag.json');
  writeFileSync(flagFile, JSON.stringify({ features: flagFeatures }));
  return readFeatureSettings(
    loadSettings({ projectRoot: project, home, managedFiles: [], settingsFiles: [flagFile], trust }),
  );
}

describe('readFeatureSettings', () => {
  it('a trusted project switches flags on; the flag file, of higher precedence, wins per flag', () => {
    const got = read({ WORKTREE: true, BROWSER: true }, { BROWSER: false }, true);
    expect(got.features).toEqual({ WORKTREE: true, BROWSER: false });
    expect(got.warnings).toEqual([]);
  });

  it('an untrusted project may switch a flag off but not on', () => {
    const got = read({ WORKTREE: true, SLEEP: false }, {}, false);
    expect(got.features).toEqual({ SLEEP: false });
    expect(got.warnings.join('\n')).toMatch(/"WORKTREE" is not switched on: the folder is not trusted/);
  });

  it('unknown names, non-boolean values and a non-object are warnings', () => {
    const got = read({ NOPE: true, BROWSER: 'yes' }, ['WORKTREE'], true);
    expect(got.features).toEqual({});
    expect(got.warnings.join('\n')).toMatch(/unknown feature "NOPE"/);
    expect(got.warnings.join('\n')).toMatch(/feature "BROWSER" must be true or false/);
    expect(got.warnings.join('\n')).toMatch(/"features" must be an object/);
  });
});
