import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPid, plantTempFiles, staleTempRows } from '../../testing/stale-temp-files.js';
import { isGantryTempName } from '../../core/stale-temp.js';
import { destinationFile, persistRule } from './persist.js';

let root: string;
let world: { projectRoot: string; home: string };
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-persist-'));
  world = { projectRoot: path.join(root, 'p'), home: path.join(root, 'h') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('persistRule', () => {
  it('creates .claude/settings.local.json when missing', () => {
    const r = persistRule('Bash(npm test:*)', 'allow', 'localSettings', world);
    expect(r).toEqual({
      file: path.join(world.projectRoot, '.claude', 'settings.local.json'),
      changed: true,
    });
    expect(JSON.parse(readFileSync(r.file, 'utf8'))).toEqual({
      permissions: { allow: ['Bash(npm test:*)'] },
    });
  });

  it('keeps other keys and existing rules, appends once', () => {
    const file = destinationFile('localSettings', world);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({ model: 'x', permissions: { allow: ['Read'], deny: ['Bash(rm:*)'] }, hooks: {} }),
    );
    chmodSync(file, 0o600);
    persistRule('Bash(git log:*)', 'allow', 'localSettings', world);
    expect(persistRule('Bash(git log:*)', 'allow', 'localSettings', world).changed).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      model: 'x',
      permissions: { allow: ['Read', 'Bash(git log:*)'], deny: ['Bash(rm:*)'] },
      hooks: {},
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to overwrite a file that is not valid JSON', () => {
    const file = destinationFile('userSettings', world);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{ broken');
    expect(() => persistRule('Read', 'allow', 'userSettings', world)).toThrow(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
  });

  it.each([
    ['localSettings', 'p/.claude/settings.local.json', 'local'],
    ['projectSettings', 'p/.claude/settings.json', 'project'],
    ['userSettings', 'h/.claude/settings.json', 'user'],
  ] as const)('%s → %s (%s)', (dest, rel, _why) => {
    expect(destinationFile(dest, world)).toBe(path.join(root, rel));
  });
});

describe('persistRule temp files (docs/reliability.md "Temp files")', () => {
  it('writes through a temp file named with its pid, and leaves none behind', async () => {
    const file = destinationFile('localSettings', world);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{}');
    // fs.watch starts watching before it returns (the promise form only once iterated).
    const seen: string[] = [];
    let renamed!: () => void;
    const done = new Promise<void>((resolve) => {
      renamed = resolve;
    });
    const watcher = watch(path.dirname(file), (_event, name) => {
      if (name) seen.push(name);
      if (name === 'settings.local.json') renamed(); // the rename over the target is the last step
    });
    persistRule('Read', 'allow', 'localSettings', world);
    await done;
    watcher.close();
    expect(seen.filter(isGantryTempName)[0]).toMatch(
      new RegExp(`^\\.settings\\.local\\.json\\.gantry-tmp-${process.pid}-[0-9a-f]{8}$`),
    );
    expect(readdirSync(path.dirname(file)).filter((f) => f !== 'settings.local.json')).toEqual([]);
  });

  it('removes a killed writer’s old temp file; keeps a live writer’s, a young one, and other names', () => {
    const file = destinationFile('projectSettings', world);
    const dir = path.dirname(file);
    mkdirSync(dir, { recursive: true });
    const rows = staleTempRows('settings.json', `.settings.json.${'ab'.repeat(6)}.tmp`);
    plantTempFiles(dir, rows);
    persistRule('Read', 'allow', 'projectSettings', world);
    const left = new Set(readdirSync(dir));
    for (const [name, , kept, why] of rows) expect(left.has(name), why).toBe(kept);
  });

  it('never follows a link named like a stale temp file', () => {
    const file = destinationFile('userSettings', world);
    const dir = path.dirname(file);
    mkdirSync(dir, { recursive: true });
    const victim = path.join(root, 'victim');
    writeFileSync(victim, 'keep');
    const link = path.join(dir, `.settings.json.gantry-tmp-${deadPid()}-0123abcd`);
    symlinkSync(victim, link);
    persistRule('Read', 'allow', 'userSettings', world);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('keep');
  });
});
