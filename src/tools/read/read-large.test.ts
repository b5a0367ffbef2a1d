/**
 * Read on a 1 GiB file. The file is made of 64-byte lines, 16,384 per MiB; the first line of every MiB says which
 * MiB it is, so a window read at a deep offset can be checked exactly.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EditTool } from '../edit/edit.tool.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { ReadTool } from './read.tool.js';
import type { ReadTextOutput } from './text-result.js';

const LINE_BYTES = 64;
const MIB = 1024 * 1024;
const LINES_PER_MIB = MIB / LINE_BYTES;
const MIBS = 1024;

const pad = (text: string) => `${text.padEnd(LINE_BYTES - 1, '.')}\n`;

let dir: string;
let cleanup: () => Promise<void>;
let file: string;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('gantry-1gb-'));
  file = path.join(dir, 'huge.log');
  const chunk = Buffer.from(
    Array.from({ length: LINES_PER_MIB }, (_, i) => pad(`line ${i} of this MiB`)).join(''),
  );
  const handle = await open(file, 'w');
  try {
    for (let m = 0; m < MIBS; m++) {
      chunk.write(pad(`MiB ${String(m).padStart(4, '0')} starts here`), 0);
      await handle.write(chunk, 0, chunk.length);
    }
  } finally {
    await handle.close();
  }
}, 120_000);

afterAll(async () => cleanup());

describe('Read: a 1 GiB file', () => {
  it('reads 2000 lines at a deep offset without loading the file (peak RSS grows < 100 MiB)', async () => {
    // 2000 numbered 64-byte lines are ~146K characters, over the default 25K-token cap: raise it.
    const context = makeToolContext({ cwd: dir, compat: { readMaxOutputTokens: 50_000 } });
    const offset = 700 * LINES_PER_MIB + 1;
    const peakBeforeKiB = process.resourceUsage().maxRSS;
    const run = await runToolOk<ReadTextOutput>(ReadTool, { file_path: file, offset, limit: 2000 }, context);
    const peakGrowthMiB = (process.resourceUsage().maxRSS - peakBeforeKiB) / 1024;
    expect(peakGrowthMiB).toBeLessThan(100);
    const lines = run.data.file.content.split('\n');
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe(pad('MiB 0700 starts here').trimEnd());
    expect(lines[1]).toBe(pad('line 1 of this MiB').trimEnd());
    expect(String(run.content).startsWith(`${offset}\tMiB 0700 starts here`)).toBe(true);
    // It stopped after the window: the end of the file was never reached.
    expect(String(run.content)).toContain(`Use offset=${offset + 2000} to continue.`);
    expect(String(run.content)).toContain('of a file that continues');
    expect(context.readFileState.get(file)).toMatchObject({
      isPartial: true,
      contentHash: '',
      offset,
      limit: 2000,
    });
  });

  it('reads the last lines and counts every line when it reaches the end', async () => {
    const context = makeToolContext({ cwd: dir });
    const totalLines = MIBS * LINES_PER_MIB + 1; // the empty text after the final newline is a line
    const run = await runToolOk<ReadTextOutput>(
      ReadTool,
      { file_path: file, offset: totalLines - 2 },
      context,
    );
    expect(run.data.file).toMatchObject({ totalLines, numLines: 3, startLine: totalLines - 2 });
    expect(run.data.file.content).toBe(
      `${pad(`line ${LINES_PER_MIB - 2} of this MiB`)}${pad(`line ${LINES_PER_MIB - 1} of this MiB`)}`,
    );
  });

  it('refuses to Edit it (too large to load) and points to a streaming tool', async () => {
    const context = makeToolContext({ cwd: dir });
    await runToolOk(ReadTool, { file_path: file, offset: 1, limit: 1 }, context);
    expect(
      await runToolError(EditTool, { file_path: file, old_string: 'MiB 0000', new_string: 'x' }, context),
    ).toMatch(/larger than the 268435456-byte limit for editing\. Change it with a Bash command/);
  });
});
