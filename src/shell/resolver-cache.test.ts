/**
 * The per-analysis resolver cache (resolver-cache.ts) keeps the caller's answer to "is this
 * destination a directory?": without it every `cp`/`mv` destination read as unknown, so the
 * analysis assumed a copy into it too (`cp ~/.bashrc ~/.bashrc.bak` named `~/.bashrc.bak/.bashrc`,
 * a protected start-up file, and was blocked instead of asking).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsPathResolver, mapPathResolver, type PathResolver } from '../core/paths.js';
import { analyzeCommand } from './analyze.js';
import { initShellParser } from './index.js';
import { cachingResolver } from './resolver-cache.js';

let dir: string;
beforeAll(async () => {
  await initShellParser();
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-resolver-cache-'));
  writeFileSync(path.join(dir, 'f'), 'x');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writes = (command: string, resolver: PathResolver, cwd: string) =>
  analyzeCommand(command, { cwd, home: '/home/u', resolver })
    .effects.filter((e) => e.kind === 'write')
    .map((e) => e.target)
    .sort();

describe('cachingResolver keeps isDirectory', () => {
  it('a declared world: a destination that is not a directory is written as itself only', () => {
    const world = mapPathResolver({}, ['/home/u', '/home/u/p']);
    expect(writes('cp ~/.bashrc ~/.bashrc.bak', world, '/home/u/p')).toEqual(['/home/u/.bashrc.bak']);
    expect(writes('cp ~/.bashrc ~/p', world, '/home/u/p')).toEqual(['/home/u/p/.bashrc']);
  });

  it('the real filesystem: answers from stat, once per path', () => {
    let asked = 0;
    const counting: PathResolver = {
      realpath: (p) => fsPathResolver.realpath(p),
      isDirectory: (p) => {
        asked++;
        return fsPathResolver.isDirectory?.(p);
      },
    };
    const cached = cachingResolver(counting);
    expect(cached.isDirectory?.(dir)).toBe(true);
    expect(cached.isDirectory?.(dir)).toBe(true);
    expect(cached.isDirectory?.(path.join(dir, 'f'))).toBe(false);
    expect(asked).toBe(2);
    expect(cachingResolver(fsPathResolver).isDirectory?.(dir)).toBe(true);
    expect(writes('cp f g', fsPathResolver, dir)).toEqual([path.join(dir, 'g')]);
  });

  it('a resolver without isDirectory stays without (unknown: both readings)', () => {
    expect(cachingResolver(mapPathResolver({})).isDirectory).toBeUndefined();
  });
});
