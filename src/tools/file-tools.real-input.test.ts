/**
 * Real input: every Read / Write / Edit / Glob / Grep / NotebookEdit call recorded from real
 * agent sessions in ../shared/data/real/agent-tool-calls.jsonl must pass our input schemas unchanged.
 * The data is loaded at test time (never copied here); the table below pins the per-tool counts and
 * lists every exception with its reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../core/index.js';
import { sharedFile } from '../testing/shared-data.js';
import { EditTool } from './edit/edit.tool.js';
import { GlobTool } from './glob/glob.tool.js';
import { GrepTool } from './grep/grep.tool.js';
import { NotebookEditTool } from './notebook-edit/notebook-edit.tool.js';
import { ReadTool } from './read/read.tool.js';
import { WriteTool } from './write/write.tool.js';

const file = sharedFile('data/real/agent-tool-calls.jsonl');

const TOOLS: Record<string, AnyTool> = {
  Read: ReadTool,
  Write: WriteTool,
  Edit: EditTool,
  Glob: GlobTool,
  Grep: GrepTool,
  NotebookEdit: NotebookEditTool,
};

/** Calls per tool in the data (observed Claude Code transcripts); a changed file shows up here first. */
const EXPECTED_COUNTS: Record<string, number> = {
  Read: 468,
  Write: 113,
  Edit: 282,
  Glob: 102,
  Grep: 87,
  NotebookEdit: 0,
};

/**
 * Calls our schemas reject on purpose, by `tool_use_id`, with the reason. Empty: every recorded call
 * is accepted as it was sent.
 */
const EXCEPTIONS: Record<string, string> = {};

interface RecordedCall {
  tool: string;
  input: unknown;
  tool_use_id: string | null;
  session: string;
  seq: number;
}

function loadCalls(path: string): RecordedCall[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RecordedCall)
    .filter((call) => call.tool in TOOLS);
}

describe.skipIf(!file)('real agent tool calls pass the file tools’ input schemas', () => {
  const calls = file ? loadCalls(file) : [];

  it('has the expected number of calls per tool', () => {
    const counts = Object.fromEntries(Object.keys(TOOLS).map((name) => [name, 0]));
    for (const call of calls) counts[call.tool] = (counts[call.tool] ?? 0) + 1;
    expect(counts).toEqual(EXPECTED_COUNTS);
  });

  it.each(Object.keys(TOOLS))('every recorded %s call parses (exceptions listed with reasons)', (name) => {
    const tool = TOOLS[name] as AnyTool;
    const rejected: Record<string, string> = {};
    for (const call of calls.filter((c) => c.tool === name)) {
      const parsed = tool.inputSchema.safeParse(call.input);
      if (!parsed.success) {
        const id = call.tool_use_id ?? `${call.session}#${call.seq}`;
        rejected[id] = parsed.error.issues
          .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
          .join('; ');
      }
    }
    const expected = Object.fromEntries(
      Object.keys(rejected)
        .filter((id) => id in EXCEPTIONS)
        .map((id) => [id, rejected[id]]),
    );
    expect(rejected).toEqual(expected);
    for (const id of Object.keys(EXCEPTIONS)) {
      if (calls.some((c) => c.tool === name && c.tool_use_id === id)) expect(rejected).toHaveProperty(id);
    }
  });

  it('keeps Grep and Glob field spellings the data uses (-A, -B, -C, -i, -n, context, head_limit, output_mode)', () => {
    const used = new Set<string>();
    for (const call of calls.filter((c) => c.tool === 'Grep' || c.tool === 'Glob')) {
      for (const key of Object.keys(call.input as object)) used.add(`${call.tool}.${key}`);
    }
    const grepKeys = Object.keys((GrepTool.inputSchema as unknown as { shape: object }).shape);
    const globKeys = Object.keys((GlobTool.inputSchema as unknown as { shape: object }).shape);
    for (const key of used) {
      const [tool, field] = key.split('.') as [string, string];
      expect(tool === 'Grep' ? grepKeys : globKeys).toContain(field);
    }
    expect(used.size).toBeGreaterThan(10);
  });
});
