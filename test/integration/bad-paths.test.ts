/**
 * Bad paths through the runtime with the real engine and tools: a character no file name can hold
 * is a validation error naming the field (never a raw Node error), and an Edit, NotebookEdit or
 * Write outside the working directories gives the same answer whether or not the file exists
 * (the file is looked at only after the permission decision).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentText, type ToolUseBlock } from '../../src/core/index.js';
import { createPermissionEngine, loadSettings } from '../../src/permissions/index.js';
import { assembleToolPool, createToolRuntime } from '../../src/runtime/index.js';
import { getAllBaseTools } from '../../src/tools/index.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

async function session() {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-badpath-')));
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  const outside = path.join(root, 'outside');
  mkdirSync(project, { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(project, 'a.txt'), 'a\n');
  writeFileSync(path.join(outside, 'exists.txt'), 'x\n');
  writeFileSync(
    path.join(outside, 'exists.ipynb'),
    JSON.stringify({ cells: [], nbformat: 4, nbformat_minor: 5, metadata: {} }),
  );
  const settings = loadSettings({ projectRoot: project, home, managedFiles: [] });
  const engine = createPermissionEngine({ settings });
  const runtime = createToolRuntime({
    tools: assembleToolPool({ builtIn: await getAllBaseTools(), isDenied: (n) => engine.isToolDenied(n) })
      .callable,
    cwd: project,
    sessionDir: path.join(root, 'session'),
    decide: engine.decider,
    canUseTool: async () => ({ behavior: 'deny', message: 'not approved' }),
  });
  let n = 0;
  const run = async (name: string, input: Record<string, unknown>) => {
    const block: ToolUseBlock = { type: 'tool_use', id: `toolu_bad_${++n}`, name, input };
    const r = (await runtime.runToolsToCompletion([block])).results[0];
    return { isError: r?.is_error === true, text: r ? contentText(r.content) : '' };
  };
  return { project, outside, run };
}

describe('a NUL or an unpaired surrogate in a path', () => {
  it.each([
    ['Read', 'file_path', {}],
    ['Write', 'file_path', { content: 'x' }],
    ['Edit', 'file_path', { old_string: 'a', new_string: 'b' }],
    ['NotebookEdit', 'notebook_path', { new_source: 'x', cell_id: 'cell-0' }],
    ['Glob', 'path', { pattern: '*' }],
    ['Grep', 'path', { pattern: 'a' }],
  ])('%s: a validation error naming %s, not a raw Node error', async (tool, field, rest) => {
    const s = await session();
    for (const bad of [`${s.project}/a.txt\0/etc/passwd`, `${s.project}/\ud800.txt`]) {
      const r = await s.run(tool, { [field]: bad, ...rest });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(new RegExp(`^<tool_use_error>${field} contains`));
      expect(r.text).toContain(field);
      expect(r.text).not.toMatch(/ERR_INVALID_ARG|must be .* without null bytes|failed unexpectedly/);
    }
  });
});

describe('outside the working directories, no answer tells whether a file exists', () => {
  it.each([
    ['Edit', 'file_path', 'exists.txt', 'missing.txt', { old_string: 'x', new_string: 'y' }],
    [
      'NotebookEdit',
      'notebook_path',
      'exists.ipynb',
      'missing.ipynb',
      { new_source: 'x', cell_id: 'cell-0' },
    ],
    ['Write', 'file_path', 'exists.txt', 'missing.txt', { content: 'y' }],
  ])(
    '%s: the same refusal for an existing and a missing file',
    async (tool, field, existing, missing, rest) => {
      const s = await session();
      const a = await s.run(tool, { [field]: path.join(s.outside, existing), ...rest });
      const b = await s.run(tool, { [field]: path.join(s.outside, missing), ...rest });
      for (const r of [a, b]) {
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/Permission for this \w+ call was refused/);
        expect(r.text).not.toMatch(/does not exist|has not been read|not found/i);
      }
      expect(a.text.replace(existing, 'F')).toBe(b.text.replace(missing, 'F'));
    },
  );
});
