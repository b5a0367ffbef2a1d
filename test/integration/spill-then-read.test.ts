/**
 * A spilled result is a plain UTF-8 file the Read tool opens (docs/architecture.md):
 * turn 1 spills an oversized result, turn 2 reads it back through the same runtime.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowAllDecider, createToolRuntime } from '../../src/runtime/index.js';
import { makeTempDir, makeTool, toolUse } from '../../src/testing/runtime-fixtures.js';
import { ReadTool } from '../../src/tools/read/read.tool.js';

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('spilled results and the Read tool', () => {
  it('the model can Read the file named in a <persisted-output> block', async () => {
    const Listing = makeTool({ name: 'Listing', maxResultSizeChars: 1_000 });
    const runtime = createToolRuntime({
      tools: [Listing, ReadTool],
      cwd: temp.dir,
      sessionDir: path.join(temp.dir, 'session'),
      decide: allowAllDecider,
    });
    const lines = Array.from({ length: 400 }, (_, i) => `entry number ${i}`);
    const first = await runtime.runToolsToCompletion([
      toolUse('toolu_list', 'Listing', { text: `${lines.join('\n')}\n` }),
    ]);
    const spilled = String(first.results[0]?.content);
    const filePath = /Full output saved to: (.+)$/m.exec(spilled)?.[1];
    expect(filePath).toBe(path.join(temp.dir, 'session', 'tool-results', 'toolu_list.txt'));

    const second = await runtime.runToolsToCompletion([
      toolUse('toolu_read', 'Read', { file_path: filePath, offset: 390, limit: 20 }),
    ]);
    const read = second.results[0];
    expect(read?.is_error).toBeUndefined();
    const text = JSON.stringify(read?.content);
    expect(text).toContain('entry number 389');
    expect(text).toContain('entry number 399');
    expect(text).not.toContain('entry number 388');
  });
});
