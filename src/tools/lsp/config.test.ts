/** The `lspServers` checks and the choice of a server for a file. */
import { describe, expect, it } from 'vitest';
import { LSP_DEFAULTS, parseLspServers, serverForFile } from './config.js';

const root = '/work/project';

describe('parseLspServers', () => {
  it.each([
    [
      { ts: { extensionToLanguage: { '.ts': 'typescript' } } },
      '"command" must be a non-empty string',
      'no command',
    ],
    [{ ts: { command: 'x' } }, 'give "extensionToLanguage" or "filePatterns"', 'no file types'],
    [
      { ts: { command: 'x', args: '--stdio', filePatterns: ['*.ts'] } },
      '"args" must be an array of strings',
      'args as a string',
    ],
    [
      { ts: { command: 'x', env: { A: 1 }, filePatterns: ['*.ts'] } },
      '"env" must map names to strings',
      'a number in env',
    ],
    [
      { ts: { command: 'x', filePatterns: [''] } },
      '"filePatterns" must be an array of glob strings',
      'an empty pattern',
    ],
    [
      { ts: { command: 'x', filePatterns: ['*.ts'], settings: [] } },
      '"settings" must be an object',
      'settings as a list',
    ],
    [
      { 'bad name': { command: 'x', filePatterns: ['*'] } },
      'the server name may contain only',
      'a space in the name',
    ],
    [{ ts: 'typescript-language-server' }, 'the entry must be an object', 'a bare string'],
  ])('%j is dropped: %s (%s)', (raw, message, _reason) => {
    const { servers, problems } = parseLspServers(raw, root);
    expect(servers).toEqual([]);
    expect(problems.map((p) => p.message).join('\n')).toContain(message);
  });

  it('keeps the good entries beside a bad one, with defaults filled in', () => {
    const { servers, problems } = parseLspServers(
      {
        bad: { command: '' },
        ts: { command: 'tsls', extensionToLanguage: { ts: 'typescript', '.TSX': 'typescriptreact' } },
      },
      root,
    );
    expect(problems).toEqual([{ server: 'bad', message: '"command" must be a non-empty string' }]);
    expect(servers).toEqual([
      expect.objectContaining({
        name: 'ts',
        command: 'tsls',
        args: [],
        extensionToLanguage: { '.ts': 'typescript', '.tsx': 'typescriptreact' },
        languageId: 'ts',
        workspaceFolder: root,
        startupTimeoutMs: LSP_DEFAULTS.startupTimeoutMs,
        restartOnCrash: true,
        maxRestarts: LSP_DEFAULTS.maxRestarts,
      }),
    ]);
  });

  it.each([
    [{ startupTimeoutMs: 500 }, 500, 'our name'],
    [{ startupTimeout: 700 }, 700, "the plugin file's name, also milliseconds"],
    [{ startupTimeoutMs: -1 }, LSP_DEFAULTS.startupTimeoutMs, 'a negative time falls back, with a problem'],
  ])('%j → startupTimeoutMs %d (%s)', (extra, expected, _reason) => {
    const { servers } = parseLspServers({ s: { command: 'x', filePatterns: ['*.x'], ...extra } }, root);
    expect(servers[0]?.startupTimeoutMs).toBe(expected);
  });

  it('a non-object lspServers is one problem', () => {
    expect(parseLspServers(['ts'], root).problems).toEqual([
      { message: '"lspServers" must be an object of servers by name' },
    ]);
  });
});

describe('serverForFile', () => {
  const { servers } = parseLspServers(
    {
      ts: { command: 'a', extensionToLanguage: { '.ts': 'typescript' } },
      make: {
        command: 'b',
        filePatterns: ['Makefile', 'build/*.mk'],
        languageId: 'makefile',
        workspaceFolder: 'sub',
      },
      ts2: { command: 'c', extensionToLanguage: { '.ts': 'other' } },
    },
    root,
  );
  it.each([
    ['/work/project/src/a.ts', 'ts', 'typescript', 'by extension; the first server wins'],
    ['/work/project/src/A.TS', 'ts', 'typescript', 'extensions match in any case'],
    ['/work/project/sub/deep/Makefile', 'make', 'makefile', 'a bare file name matches at any depth'],
    ['/work/project/sub/build/x.mk', 'make', 'makefile', 'a pattern relative to the workspace folder'],
    ['/work/project/build/x.mk', undefined, undefined, 'outside that workspace folder'],
    ['/work/project/notes.md', undefined, undefined, 'nothing handles it'],
  ])('%s → %s (%s)', (file, server, languageId, _reason) => {
    const match = serverForFile(servers, file);
    expect(match?.server.name).toBe(server);
    expect(match?.languageId).toBe(languageId);
  });
});
