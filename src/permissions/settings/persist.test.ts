import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
