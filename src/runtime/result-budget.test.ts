/**
 * Result budgets and spill files, with real files in a temp session dir.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, ToolExecutionError } from '../core/index.js';
import { makeTempDir, makeTool, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime, type ToolRuntimeOptions } from './create-tool-runtime.js';
import { allowAllDecider } from './deciders.js';
import { makePreview, safeFileStem } from './persist-result.js';

let temp: { dir: string; cleanup(): Promise<void> };
let sessionDir: string;
beforeEach(async () => {
  temp = await makeTempDir();
  sessionDir = path.join(temp.dir, 'session');
});
afterEach(async () => {
  await temp.cleanup();
});

function runtime(options: Partial<ToolRuntimeOptions> & Pick<ToolRuntimeOptions, 'tools'>) {
  return createToolRuntime({ cwd: temp.dir, sessionDir, decide: allowAllDecider, env: {}, ...options });
}

/** Produces `input.text` repeated `input.repeat` times. */
const Big = makeTool({ name: 'Big', safe: true });
const Capped = makeTool({ name: 'Capped', safe: true, maxResultSizeChars: 1_000 });
const Unlimited = makeTool({ name: 'Unlimited', safe: true, maxResultSizeChars: Number.POSITIVE_INFINITY });

function persistedPath(content: unknown): string {
  const match = /Full output saved to: (.+)$/m.exec(String(content));
  if (!match?.[1]) throw new Error(`no persisted path in ${String(content).slice(0, 200)}`);
  return match[1];
}

describe('per-call cap', () => {
  it('spills a result over the tool’s cap to <sessionDir>/tool-results/<id>.txt with a 2 KB preview', async () => {
    const full = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const { results } = await runtime({ tools: [Capped] }).runToolsToCompletion([
      toolUse('toolu_01', 'Capped', { text: full }),
    ]);
    const content = results[0]?.content as string;
    const file = path.join(sessionDir, 'tool-results', 'toolu_01.txt');
    expect(results[0]?.is_error).toBeUndefined();
    expect(content.startsWith('<persisted-output>\n')).toBe(true);
    expect(content.endsWith('\n</persisted-output>')).toBe(true);
    expect(persistedPath(content)).toBe(file);
    expect(content).toContain(`${full.length.toLocaleString('en-US')} characters`);
    expect(content).toContain('more follows');
    expect(await readFile(file, 'utf8')).toBe(full);
    const preview = makePreview(full);
    expect(Buffer.byteLength(preview.preview)).toBeLessThanOrEqual(2_000);
    expect(content).toContain(`${preview.preview}\n...`);
    expect(preview.preview.endsWith('\n')).toBe(false);
    expect(full.startsWith(preview.preview)).toBe(true);
  });

  it.each([
    [49_000, false, 'under the global cap: inline'],
    [50_000, false, 'exactly the global cap: inline'],
    [50_001, true, 'a tool declaring 100,000 is clamped to 50,000'],
  ])('a %i-character result of a default tool is spilled: %s (%s)', async (size, spilled) => {
    const { results } = await runtime({ tools: [Big] }).runToolsToCompletion([
      toolUse('t1', 'Big', { text: 'x', repeat: size }),
    ]);
    expect(String(results[0]?.content).startsWith('<persisted-output>')).toBe(spilled);
  });

  it('never spills a tool declaring Infinity, even past the turn budget', async () => {
    const { results } = await runtime({ tools: [Unlimited] }).runToolsToCompletion([
      toolUse('t1', 'Unlimited', { text: 'y', repeat: 250_000 }),
    ]);
    expect(results[0]?.content).toBe('y'.repeat(250_000));
    await expect(readdir(path.join(sessionDir, 'tool-results'))).rejects.toThrow();
  });

  it('says when the preview is the whole output', async () => {
    const Tiny = makeTool({ name: 'Tiny', maxResultSizeChars: 10 });
    const { results } = await runtime({ tools: [Tiny] }).runToolsToCompletion([
      toolUse('t1', 'Tiny', { text: 'abc', repeat: 10 }),
    ]);
    expect(results[0]?.content).toContain('(end of output');
    expect(results[0]?.content).not.toContain('more follows');
  });

  it('writes content with images as .json', async () => {
    const Image = buildTool({
      name: 'Image',
      description: 'x',
      inputSchema: z.strictObject({}),
      maxResultSizeChars: 100,
      async *call() {
        return { data: 'A'.repeat(500) };
      },
      mapToolResultToContent: (data: string) => [
        {
          type: 'image' as const,
          source: { type: 'base64' as const, media_type: 'image/png' as const, data },
        },
      ],
    });
    const { results } = await runtime({ tools: [Image] }).runToolsToCompletion([toolUse('img1', 'Image')]);
    const file = persistedPath(results[0]?.content);
    expect(path.basename(file)).toBe('img1.json');
    expect(JSON.parse(await readFile(file, 'utf8'))[0].source.data).toBe('A'.repeat(500));
  });

  it('never spills error results', async () => {
    const Fails = makeTool({
      name: 'Fails',
      maxResultSizeChars: 10,
      run: () => {
        throw new ToolExecutionError('e'.repeat(500));
      },
    });
    const { results } = await runtime({ tools: [Fails] }).runToolsToCompletion([
      toolUse('t1', 'Fails', { text: '' }),
    ]);
    expect(results[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 't1',
      content: 'e'.repeat(500),
      is_error: true,
    });
  });
});

describe('spill files', () => {
  it('creates exclusively: an existing different file is kept and a new name is used; identical content is reused', async () => {
    const dir = path.join(sessionDir, 'tool-results');
    await runtime({ tools: [Capped] }).runToolsToCompletion([
      toolUse('dup', 'Capped', { text: 'a', repeat: 2_000 }),
    ]);
    await writeFile(path.join(dir, 'other.txt'), 'someone else', { flag: 'wx' });
    const r = runtime({ tools: [Capped] });
    const first = await r.runToolsToCompletion([toolUse('other', 'Capped', { text: 'b', repeat: 2_000 })]);
    expect(persistedPath(first.results[0]?.content)).toBe(path.join(dir, 'other.1.txt'));
    expect(await readFile(path.join(dir, 'other.txt'), 'utf8')).toBe('someone else');
    const again = await r.runToolsToCompletion([toolUse('dup', 'Capped', { text: 'a', repeat: 2_000 })]);
    expect(persistedPath(again.results[0]?.content)).toBe(path.join(dir, 'dup.txt'));
    expect((await readdir(dir)).sort()).toEqual(['dup.txt', 'other.1.txt', 'other.txt']);
  });

  it.each([
    ['toolu_01ABC-x', 'toolu_01ABC-x', 'ordinary ids are kept'],
    ['../../etc/passwd', '______etc_passwd', 'path separators and dots cannot escape the folder'],
    ['', 'tool-result', 'an empty id still gets a name'],
  ])('file stem of %j is %j (%s)', (id, stem) => {
    expect(safeFileStem(id)).toBe(stem);
  });

  it('keeps multibyte characters whole in the preview', () => {
    const text = '€'.repeat(1_000);
    const { preview, hasMore } = makePreview(text);
    expect(hasMore).toBe(true);
    expect(preview).toBe('€'.repeat(666));
  });

  it('falls back to a marked truncation when the session dir cannot be written', async () => {
    const blocker = path.join(temp.dir, 'not-a-dir');
    await writeFile(blocker, 'file in the way');
    const r = createToolRuntime({
      tools: [Capped],
      cwd: temp.dir,
      sessionDir: blocker,
      decide: allowAllDecider,
    });
    const { results } = await r.runToolsToCompletion([toolUse('t1', 'Capped', { text: 'z', repeat: 5_000 })]);
    const content = results[0]?.content as string;
    expect(content).toContain('[output truncated:');
    expect(content).toContain('could not be saved');
    expect(content.length).toBeLessThan(2_000);
  });
});

describe('per-turn budget (200,000 characters)', () => {
  it('spills the largest result first, only until the rest fit', async () => {
    const sizes = [45_000, 48_000, 40_000, 30_000, 49_000];
    const { results } = await runtime({ tools: [Big] }).runToolsToCompletion(
      sizes.map((n, i) => toolUse(`t${i}`, 'Big', { text: String(i), repeat: n })),
    );
    const spilled = results.map((r) => String(r.content).startsWith('<persisted-output>'));
    expect(spilled).toEqual([false, false, false, false, true]);
    expect(await readFile(path.join(sessionDir, 'tool-results', 't4.txt'), 'utf8')).toBe('4'.repeat(49_000));
  });

  it('spills as many as needed, earlier call first on ties, and the total then fits', async () => {
    const { results } = await runtime({ tools: [Big] }).runToolsToCompletion(
      Array.from({ length: 6 }, (_, i) => toolUse(`t${i}`, 'Big', { text: String(i), repeat: 45_000 })),
    );
    const spilled = results.map((r) => String(r.content).startsWith('<persisted-output>'));
    expect(spilled).toEqual([true, true, false, false, false, false]);
    const total = results.reduce((n, r) => n + String(r.content).length, 0);
    expect(total).toBeLessThanOrEqual(200_000);
  });

  it('an Infinity result counts toward the budget but others are spilled instead', async () => {
    const { results } = await runtime({ tools: [Big, Unlimited] }).runToolsToCompletion([
      toolUse('u', 'Unlimited', { text: 'u', repeat: 180_000 }),
      toolUse('a', 'Big', { text: 'a', repeat: 10_000 }),
      toolUse('b', 'Big', { text: 'b', repeat: 20_000 }),
    ]);
    expect(results[0]?.content).toBe('u'.repeat(180_000));
    expect(results[1]?.content).toBe('a'.repeat(10_000));
    expect(String(results[2]?.content).startsWith('<persisted-output>')).toBe(true);
  });

  it('honours a custom turn budget', async () => {
    const { results } = await runtime({ tools: [Big], maxTurnResultsChars: 6_000 }).runToolsToCompletion([
      toolUse('a', 'Big', { text: 'a', repeat: 3_000 }),
      toolUse('b', 'Big', { text: 'b', repeat: 4_000 }),
    ]);
    expect(results.map((r) => String(r.content).startsWith('<persisted-output>'))).toEqual([false, true]);
  });
});

describe('media blocks in budgets', () => {
  it('an image counts by its fixed media cost, not its base64 length, so a screenshot is not spilled', async () => {
    const { capCallResult } = await import('./result-budget.js');
    const image = {
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'A'.repeat(200_000) },
    };
    const outcome = {
      index: 0,
      toolUseId: 'toolu_img',
      toolName: 'Bash',
      status: 'ok' as const,
      content: [image],
      isError: false,
      maxResultSizeChars: 30_000,
      persisted: false,
      newMessages: [],
      durationMs: 1,
    };
    const tmp = await makeTempDir();
    await capCallResult(outcome, tmp.dir);
    await tmp.cleanup();
    expect(outcome.persisted).toBe(false);
    expect(outcome.content).toEqual([image]);
  });
});
