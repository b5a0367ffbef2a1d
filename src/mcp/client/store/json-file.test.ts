import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plantTempFiles, staleTempRows } from '../../../testing/stale-temp-files.js';
import { isGantryTempName } from '../../../core/stale-temp.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-json-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeJsonFile temp files (docs/reliability.md "Temp files")', () => {
  it('writes through a temp file named with its pid (mode 0600), leaving none behind', async () => {
    const file = path.join(dir, 'state', 'pins.json');
    writeJsonFile(file, { a: 1 });
    const seen: string[] = [];
    let renamed!: () => void;
    const done = new Promise<void>((resolve) => {
      renamed = resolve;
    });
    const watcher = watch(path.dirname(file), (_event, name) => {
      if (name) seen.push(name);
      if (name === 'pins.json') renamed(); // the rename over the target is the last step
    });
    writeJsonFile(file, { a: 2 });
    await done;
    watcher.close();
    expect(seen.filter(isGantryTempName)[0]).toMatch(
      new RegExp(`^\\.pins\\.json\\.gantry-tmp-${process.pid}-[0-9a-f]{8}$`),
    );
    expect(readJsonFile(file)).toEqual({ value: { a: 2 } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['pins.json']);
  });

  it('removes a killed writer’s old temp file; keeps a live writer’s, a young one, and other names', () => {
    const rows = staleTempRows('pins.json', 'notes.txt');
    plantTempFiles(dir, rows);
    writeJsonFile(path.join(dir, 'pins.json'), []);
    const left = new Set(readdirSync(dir));
    for (const [name, , kept, why] of rows) expect(left.has(name), why).toBe(kept);
    expect(readFileSync(path.join(dir, 'pins.json'), 'utf8')).toBe('[]\n');
  });
});
