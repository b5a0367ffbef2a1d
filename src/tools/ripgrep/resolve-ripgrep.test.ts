import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isExecutableFile,
  loadVscodeRgPath,
  resolveSearchEngine,
  searchEngineProvider,
} from './resolve-ripgrep.js';

let dir: string;
let exe: string;
let notExe: string;
let pathDir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-rg-resolve-'));
  exe = path.join(dir, 'my-rg');
  notExe = path.join(dir, 'not-executable');
  pathDir = path.join(dir, 'bin');
  await writeFile(exe, '#!/bin/sh\nexit 0\n');
  await chmod(exe, 0o755);
  await writeFile(notExe, 'plain file');
  await chmod(notExe, 0o644);
  await mkdir(pathDir);
  await writeFile(path.join(pathDir, 'rg'), '#!/bin/sh\nexit 0\n');
  await chmod(path.join(pathDir, 'rg'), 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('resolveSearchEngine: RG_PATH → @vscode/ripgrep → PATH → JavaScript', () => {
  it('takes an executable RG_PATH first', async () => {
    const e = await resolveSearchEngine({ env: { RG_PATH: exe, PATH: pathDir }, vscodeRgPath: exe });
    expect(e).toMatchObject({ kind: 'ripgrep', rgPath: exe, source: 'RG_PATH' });
  });

  it('skips an RG_PATH that is not executable, says so, and takes @vscode/ripgrep', async () => {
    const e = await resolveSearchEngine({ env: { RG_PATH: notExe, PATH: pathDir }, vscodeRgPath: exe });
    expect(e).toMatchObject({ kind: 'ripgrep', rgPath: exe, source: '@vscode/ripgrep' });
    expect(e.notes.join(' ')).toContain(notExe);
  });

  it('skips a @vscode/ripgrep path that does not exist and takes rg on PATH', async () => {
    const e = await resolveSearchEngine({ env: { PATH: pathDir }, vscodeRgPath: path.join(dir, 'missing') });
    expect(e).toMatchObject({ kind: 'ripgrep', rgPath: path.join(pathDir, 'rg'), source: 'PATH' });
  });

  it('falls back to JavaScript when no binary exists', async () => {
    const e = await resolveSearchEngine({ env: { PATH: path.join(dir, 'empty') }, vscodeRgPath: null });
    expect(e.kind).toBe('javascript');
    expect(e.notes).toContain('no rg on PATH');
  });

  it('uses JavaScript when forced, even with ripgrep available', async () => {
    const e = await resolveSearchEngine({ engine: 'javascript', env: { RG_PATH: exe } });
    expect(e.kind).toBe('javascript');
  });

  it('finds the real @vscode/ripgrep binary installed with the project', async () => {
    const real = await loadVscodeRgPath();
    expect(real).toBeTruthy();
    expect(isExecutableFile(real as string)).toBe(true);
  });
});

describe('searchEngineProvider', () => {
  it('resolves once and caches', async () => {
    const provide = searchEngineProvider({ env: { RG_PATH: exe } });
    const first = await provide();
    expect(await provide()).toBe(first);
  });

  it('rejects when ripgrep is required but missing', async () => {
    const provide = searchEngineProvider({ engine: 'ripgrep', env: { PATH: '' }, vscodeRgPath: null });
    await expect(provide()).rejects.toThrow(/ripgrep was required/);
  });
});
