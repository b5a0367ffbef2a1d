import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir, sharedFile } from '../../testing/shared-data.js';
import { isDenialText, listTranscriptFiles, newReadStats, readRecordedCalls } from './transcript-reader.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const shared = sharedDir();
const transcripts = shared ? path.join(shared, 'data/real/transcripts') : undefined;

describe('isDenialText', () => {
  it.each([
    [
      "The user doesn't want to proceed with this tool use. The tool use was rejected",
      true,
      'user rejection',
    ],
    ['Error: This command requires approval', true, 'rule/mode refusal'],
    ['Permission to use Bash has been auto-denied in dontAsk mode.', true, 'dontAsk refusal'],
    [
      "Claude requested permissions to write to /x, but you haven't granted it yet.",
      true,
      'write permission prompt unanswered',
    ],
    ['Error: Exit code 1\nfoo', false, 'an ordinary tool error'],
    ['File does not exist.', false, 'tool error'],
  ])('%j → %s (%s)', (text, expected, _why) => {
    expect(isDenialText(text)).toBe(expected);
  });
});

describe('readRecordedCalls on written transcripts', () => {
  it('matches results by id, tolerates malformed lines, keeps calls without results', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gantry-tr-'));
    temps.push(dir);
    const f = path.join(dir, 's.jsonl');
    const env = { cwd: '/w', sessionId: 's1', isSidechain: false };
    const lines = [
      JSON.stringify({
        ...env,
        type: 'assistant',
        message: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] },
      }),
      '{"broken": ',
      JSON.stringify({
        ...env,
        type: 'assistant',
        message: {
          content: [
            { type: 'tool_use', id: 't2', name: 'Write', input: { file_path: '/w/a', content: 'x' } },
          ],
        },
      }),
      JSON.stringify({
        ...env,
        type: 'assistant',
        message: { content: [{ type: 'tool_use', id: 't3', name: 'Read', input: { file_path: '/w/b' } }] },
      }),
      JSON.stringify({
        ...env,
        type: 'user',
        message: {
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't2',
              is_error: true,
              content: "The user doesn't want to proceed with this tool use.",
            },
          ],
        },
      }),
      JSON.stringify({
        ...env,
        type: 'user',
        message: {
          content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a\nb' }] }],
        },
      }),
    ];
    writeFileSync(f, `${lines.join('\n')}\n`);
    const stats = newReadStats();
    const calls = await readRecordedCalls(f, stats);
    expect(calls.map((c) => [c.toolUseId, c.tool, c.outcome])).toEqual([
      ['t1', 'Bash', 'executed'],
      ['t2', 'Write', 'denied'],
      ['t3', 'Read', 'unknown'],
    ]);
    expect(stats).toMatchObject({ malformedLines: 1, calls: 3, callsWithoutResult: 1 });
    expect(calls[0]?.cwd).toBe('/w');
  });
});

describe.skipIf(!transcripts)('readRecordedCalls on the genuine Claude Code transcripts (../shared)', () => {
  // Counts of tool_use blocks per file of the shared genuine transcripts
  it.each([
    ['spotter/short.jsonl', 2, 0, 'minimal session'],
    ['spotter/tool_heavy.jsonl', 6, 0, 'background Bash, hooks'],
    ['spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', 242, 0, 'complete session'],
    ['spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl', 12, 0, 'sub-agent file'],
    ['m-claude/554b9fa6-f719-40e8-ba70-beee69bd60b5.jsonl', 125, 6, '6 results lost upstream'],
    ['m-claude/ff59cfd2-09dc-4a18-8c9f-0d46c3d4e8cd.jsonl', 191, 0, 'Windows host'],
    ['m-claude/343e3472-b9b6-4561-ade0-21d1a4730c11.jsonl', 25, 0, 'PowerShell via Bash'],
    ['hive-mind/stream-json-3b09acec-2c2f-4d29-bfe8-77480cedc28b.jsonl', 35, 0, 'headless stream-json'],
  ])('%s: %i calls, %i without result (%s)', async (rel, nCalls, nNoResult, _why) => {
    const stats = newReadStats();
    const calls = await readRecordedCalls(path.join(transcripts as string, rel), stats);
    expect(calls.length).toBe(nCalls);
    expect(stats.callsWithoutResult).toBe(nNoResult);
    expect(calls.every((c) => c.cwd !== '')).toBe(true);
  });

  it('finds the short session rejections and the m-claude denials', async () => {
    const short = await readRecordedCalls(path.join(transcripts as string, 'spotter/short.jsonl'));
    expect(short.map((c) => c.outcome)).toEqual(['denied', 'denied']);
    const m = await readRecordedCalls(
      path.join(transcripts as string, 'm-claude/554b9fa6-f719-40e8-ba70-beee69bd60b5.jsonl'),
    );
    expect(m.filter((c) => c.outcome === 'denied').length).toBeGreaterThanOrEqual(80);
  });

  it('lists sub-agent files when given the directory', async () => {
    const files = await listTranscriptFiles([transcripts as string]);
    expect(files.some((f) => f.includes('/subagents/agent-aac57f5.jsonl'))).toBe(true);
    expect(files.length).toBe(9);
  });
});

const agentCalls = sharedFile('data/real/agent-tool-calls.jsonl');
describe.skipIf(!agentCalls)('readRecordedCalls on agent-tool-calls.jsonl', () => {
  it('reads every row with its recorded outcome (observed Claude Code transcripts)', async () => {
    const stats = newReadStats();
    const calls = await readRecordedCalls(agentCalls as string, stats);
    expect(calls.length).toBe(4133);
    const by = (o: string) => calls.filter((c) => c.outcome === o).length;
    expect([by('executed'), by('error'), by('denied'), by('unknown')]).toEqual([3212, 327, 105, 489]);
    expect(stats.malformedLines).toBe(0);
  });
});
