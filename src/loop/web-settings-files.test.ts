/**
 * `readWebSettings` over real settings files loaded by the permission loader: a project file of an
 * untrusted folder keeps its choices (the WebFetch model) but loses its allowances (private and
 * plain-http hosts); the same folder trusted keeps them; a user file's allowances always count.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../permissions/settings/load.js';
import { readWebSettings } from './web-settings-files.js';

let root: string;
let home: string;
let project: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-web-settings-')));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({
      webFetch: {
        allowPrivateHosts: ['wiki.corp.example'],
        allowHttpHosts: ['wiki.corp.example'],
        model: 'none',
      },
    }),
  );
  writeFileSync(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({ webFetch: { allowPrivateHosts: ['127.0.0.1'] }, webSearch: { provider: 'searxng' } }),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const load = (trust: boolean) =>
  loadSettings({ projectRoot: project, home, env: {}, managedFiles: [], trust });

describe('readWebSettings', () => {
  it("an untrusted project's allowances are dropped with a warning; its model choice and the user's allowances stay", () => {
    const { web, warnings } = readWebSettings(load(false));
    expect(web.webFetch).toEqual({ allowPrivateHosts: ['127.0.0.1'], model: 'none' });
    expect(web.webSearch).toEqual({ provider: 'searxng' });
    expect(warnings.join('\n')).toMatch(
      /webFetch\.allowPrivateHosts in .*project.*ignored: the folder is not trusted/,
    );
    expect(warnings.join('\n')).toMatch(/webFetch\.allowHttpHosts in .*ignored/);
  });

  it('a trusted project adds its allowances to the user file', () => {
    const { web, warnings } = readWebSettings(load(true));
    expect([...(web.webFetch.allowPrivateHosts ?? [])].sort()).toEqual(['127.0.0.1', 'wiki.corp.example']);
    expect(web.webFetch.allowHttpHosts).toEqual(['wiki.corp.example']);
    expect(warnings).toEqual([]);
  });
});
