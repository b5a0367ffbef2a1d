/**
 * `readLspSettings` over real settings files loaded by the permission loader: servers merge by
 * name (the project's entry wins over the user's as a whole), an untrusted project contributes no
 * servers (an entry names a program to run), and a bad entry is a warning naming the file.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../permissions/settings/load.js';
import { readLspSettings } from './lsp-settings-files.js';

let root: string;
let home: string;
let project: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-lsp-settings-')));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    JSON.stringify({
      lspServers: {
        typescript: {
          command: './node_modules/.bin/typescript-language-server',
          args: ['--stdio'],
          extensionToLanguage: { '.ts': 'typescript' },
        },
        broken: { args: [] },
      },
    }),
  );
  writeFileSync(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({
      lspServers: {
        typescript: {
          command: 'typescript-language-server',
          extensionToLanguage: { '.ts': 'typescript', '.js': 'javascript' },
        },
        bash: {
          command: 'bash-language-server',
          args: ['start'],
          extensionToLanguage: { '.sh': 'shellscript' },
        },
      },
    }),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const load = (trust: boolean) =>
  loadSettings({ projectRoot: project, home, env: {}, managedFiles: [], trust });

describe('readLspSettings', () => {
  it('a trusted project: its entry replaces the user entry of the same name; a bad entry is a warning', () => {
    const { servers, warnings } = readLspSettings(load(true), project);
    expect(servers.map((s) => [s.name, s.command, Object.keys(s.extensionToLanguage)])).toEqual([
      ['typescript', './node_modules/.bin/typescript-language-server', ['.ts']],
      ['bash', 'bash-language-server', ['.sh']],
    ]);
    expect(servers[0]?.workspaceFolder).toBe(project);
    expect(warnings).toEqual([
      `settings: ${path.join(project, '.claude', 'settings.json')}: lspServers.broken: "command" must be a non-empty string`,
    ]);
  });

  it("an untrusted folder starts no server, not even the user's (a server may load the project's code)", () => {
    const { servers, warnings } = readLspSettings(load(false), project);
    expect(servers).toEqual([]);
    expect(warnings).toEqual([
      `untrusted folder: "lspServers" of ${path.join(project, '.claude', 'settings.json')} ignored`,
      "untrusted folder: language servers (typescript, bash) are not started, since a server may load the project's own code; trust the folder to use them",
    ]);
  });
});
