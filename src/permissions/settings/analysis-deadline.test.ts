/**
 * The settings key `analysisDeadlineMs` (docs/analysis-budget.md): read from every source by
 * precedence, a wrong type is a problem with its line, and an untrusted project may shorten the
 * deadline but not lengthen it (a longer one could outlast the host's hook timeout, and the host
 * would then run the call unchecked). Real files in a temp home and project.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from './load.js';

let root: string;
let home: string;
let project: string;

function put(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}
const load = (trust: boolean) =>
  loadSettings({
    projectRoot: project,
    home,
    managedFiles: [path.join(root, 'managed.json')],
    env: {},
    trust,
  });

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-deadline-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('analysisDeadlineMs', () => {
  it('is unset by default', () => {
    expect(load(true).analysisDeadlineMs).toBeUndefined();
  });

  it('takes the highest-precedence source that sets it', () => {
    put(path.join(home, '.gantry', 'settings.json'), { analysisDeadlineMs: 3000 });
    put(path.join(project, '.gantry', 'settings.local.json'), { analysisDeadlineMs: 2000 });
    expect(load(true).analysisDeadlineMs).toBe(2000);
    put(path.join(root, 'managed.json'), { analysisDeadlineMs: 500 });
    expect(load(true).analysisDeadlineMs).toBe(500);
  });

  it('a value that is not a positive number is a problem with its line, and is ignored', () => {
    const file = path.join(home, '.gantry', 'settings.json');
    put(file, '{\n  "analysisDeadlineMs": "fast"\n}\n');
    const s = load(true);
    expect(s.analysisDeadlineMs).toBeUndefined();
    expect(s.problems).toContainEqual(
      expect.objectContaining({ file, line: 2, message: expect.stringContaining('positive number') }),
    );
  });

  it('an untrusted project may shorten it but not lengthen it', () => {
    put(path.join(project, '.claude', 'settings.json'), { analysisDeadlineMs: 60_000 });
    const s = load(false);
    expect(s.analysisDeadlineMs).toBeUndefined();
    expect(s.problems.some((p) => p.message.includes('analysisDeadlineMs 60000 ignored'))).toBe(true);
    put(path.join(project, '.claude', 'settings.json'), { analysisDeadlineMs: 300 });
    expect(load(false).analysisDeadlineMs).toBe(300);
    put(path.join(project, '.claude', 'settings.json'), { analysisDeadlineMs: 60_000 });
    expect(load(true).analysisDeadlineMs).toBe(60_000);
  });
});
