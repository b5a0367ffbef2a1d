/**
 * Transcript writer and reader on real files: the line layout and parent chain, the restore rule
 * (consecutive lines → messages), torn and malformed lines, repair of unanswered tool_use blocks,
 * and the project slug.
 */
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Usage } from '../../core/messages.js';
import { appendAssistant, appendUserPart } from '../messages.js';
import { latestTranscript, MAX_SLUG_CHARS, projectSlug, transcriptPathFor } from './paths.js';
import { LOST_RESULT_TEXT, loadSessionMessages, readTranscriptLines, resumeSession } from './reader.js';
import { TranscriptWriter } from './writer.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-transcript-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const usage: Usage = {
  input_tokens: 1,
  output_tokens: 2,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};
const meta = (messageId: string, blockIndex: number) => ({
  messageId,
  model: 'm',
  usage,
  stopReason: null,
  blockIndex,
});

function lines(file: string): any[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('projectSlug and paths', () => {
  it.each([
    ['/home/u/my.app', '-home-u-my-app', 'dots and slashes become -'],
    ['/tmp/a b/ü', '-tmp-a-b--', 'spaces and non-ASCII become -'],
  ])('%s → %s (%s)', (cwd, slug, _why) => {
    expect(projectSlug(cwd)).toBe(slug);
  });

  it('long slugs are cut with a hash suffix and stay distinct', () => {
    const a = projectSlug(`/${'a'.repeat(300)}`);
    const b = projectSlug(`/${'a'.repeat(299)}b`);
    expect(a).toHaveLength(MAX_SLUG_CHARS + 9);
    expect(a).not.toBe(b);
  });

  it('transcripts live under <gantryHome>/projects/<slug>/<session>.jsonl; latestTranscript picks the newest', () => {
    const home = path.join(dir, '.gantry');
    const f1 = transcriptPathFor(home, '/w/p', 's1');
    expect(f1).toBe(path.join(home, 'projects', '-w-p', 's1.jsonl'));
    expect(latestTranscript(home, '/w/p')).toBeUndefined();
    new TranscriptWriter({ file: f1, sessionId: 's1', cwd: '/w/p' }).userContent('a');
    const f2 = transcriptPathFor(home, '/w/p', 's2');
    new TranscriptWriter({ file: f2, sessionId: 's2', cwd: '/w/p' }).userContent('b');
    utimesSync(f1, new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(latestTranscript(home, '/w/p')).toBe(f2);
  });
});

describe('TranscriptWriter', () => {
  it('writes the envelope, one assistant line per block, tool results parented to their tool_use line', () => {
    const file = path.join(dir, 'sub', 's.jsonl');
    const w = new TranscriptWriter({ file, sessionId: 'S', cwd: '/w', gitBranch: 'main' });
    const prompt = w.userContent('hello', { promptId: 'p1', permissionMode: 'default' });
    const a0 = w.assistantBlock({ type: 'text', text: 'Looking.' }, meta('msg_1', 0));
    const a1 = w.assistantBlock({ type: 'tool_use', id: 't1', name: 'Read', input: {} }, meta('msg_1', 1));
    const a2 = w.assistantBlock({ type: 'tool_use', id: 't2', name: 'Grep', input: {} }, meta('msg_1', 2));
    const r1 = w.toolResult(
      { type: 'tool_result', tool_use_id: 't2', content: 'two' },
      { n: 2 },
      { id: 't2' },
    );
    const r2 = w.toolResult(
      { type: 'tool_result', tool_use_id: 't1', content: 'one' },
      { n: 1 },
      {
        id: 't1',
        permission_decision: { decision: 'accept', source: 'config', reason_type: 'read-only' },
      },
    );
    const a3 = w.assistantBlock({ type: 'text', text: 'Done.' }, meta('msg_2', 0));
    w.close();
    const ls = lines(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ls[0]).toMatchObject({
      parentUuid: null,
      isSidechain: false,
      type: 'user',
      uuid: prompt,
      userType: 'external',
      cwd: '/w',
      sessionId: 'S',
      gitBranch: 'main',
      message: { role: 'user', content: 'hello' },
      promptId: 'p1',
      permissionMode: 'default',
    });
    expect(ls.map((l) => l.parentUuid)).toEqual([null, prompt, a0, a1, a2, a1, r2]);
    expect(ls[4]).toMatchObject({ uuid: r1, toolUseResult: { n: 2 }, sourceToolAssistantUUID: a2 });
    expect(ls[5]).toMatchObject({
      permissionDecision: { decision: 'accept', source: 'config', reasonType: 'read-only' },
    });
    expect(ls[6]).toMatchObject({
      uuid: a3,
      message: { id: 'msg_2', content: [{ type: 'text', text: 'Done.' }] },
    });
  });

  it('a torn last line gets a newline before the next write; the reader skips it', () => {
    const file = path.join(dir, 't.jsonl');
    const w = new TranscriptWriter({ file, sessionId: 'S', cwd: '/w' });
    w.userContent('first');
    w.close();
    appendFileSync(file, '{"type":"assistant","mess');
    expect(readTranscriptLines(file).stats).toMatchObject({ malformed: 1, tornLastLine: true });
    const w2 = new TranscriptWriter({ file, sessionId: 'S', cwd: '/w' });
    w2.userContent('second');
    w2.close();
    const { lines: parsed, stats } = readTranscriptLines(file);
    expect(stats).toMatchObject({ malformed: 1, tornLastLine: false });
    expect(parsed.map((l) => (l.message as any).content)).toEqual(['first', 'second']);
  });

  it('a write failure is kept, never thrown', () => {
    writeFileSync(path.join(dir, 'file'), '');
    const w = new TranscriptWriter({ file: path.join(dir, 'file', 'x.jsonl'), sessionId: 'S', cwd: '/w' });
    expect(() => w.userContent('x')).not.toThrow();
    expect(w.error).toBeDefined();
  });
});

describe('restoring a conversation', () => {
  it('rebuilds exactly the messages the loop built with the same rule', () => {
    const file = path.join(dir, 'r.jsonl');
    const w = new TranscriptWriter({ file, sessionId: 'S', cwd: '/w' });
    const expected: Message[] = [];
    const user = (part: string | any[], extra = {}) => {
      appendUserPart(expected, part);
      w.userContent(part, extra);
    };
    user('<system-reminder>ctx</system-reminder>', { isMeta: true });
    user('do it');
    const a = [
      { type: 'thinking' as const, thinking: 'hmm', signature: 'sig' },
      { type: 'tool_use' as const, id: 't1', name: 'Bash', input: { command: 'ls' } },
    ];
    a.forEach((b, i) => w.assistantBlock(b, meta('msg_1', i)));
    appendAssistant(expected, { role: 'assistant', content: a });
    const tr = { type: 'tool_result' as const, tool_use_id: 't1', content: 'out', is_error: false };
    w.toolResult(tr, { stdout: 'out' }, { id: 't1' });
    appendUserPart(expected, [tr]);
    user('a prompt that arrived mid-turn');
    w.assistantBlock({ type: 'text', text: 'ok' }, meta('msg_2', 0));
    appendAssistant(expected, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    user('second prompt');
    w.close();
    expect(JSON.stringify(loadSessionMessages(file))).toBe(JSON.stringify(expected));
  });

  it('starts after the last compaction boundary', () => {
    const file = path.join(dir, 'c.jsonl');
    const w = new TranscriptWriter({ file, sessionId: 'S', cwd: '/w' });
    w.userContent('old');
    w.assistantBlock({ type: 'text', text: 'old answer' }, meta('m1', 0));
    w.compactBoundary({ trigger: 'auto', preTokens: 100, postTokens: 10 });
    w.userContent('summary', { isCompactSummary: true });
    w.close();
    expect(loadSessionMessages(file)).toEqual([{ role: 'user', content: 'summary' }]);
    const ls = lines(file);
    expect(ls[2]).toMatchObject({
      parentUuid: null,
      logicalParentUuid: ls[1].uuid,
      subtype: 'compact_boundary',
    });
  });

  it('answers a tool_use whose result never reached the file', () => {
    const file = path.join(dir, 'lost.jsonl');
    const w = new TranscriptWriter({ file, sessionId: 'S', cwd: '/w' });
    w.userContent('go');
    w.assistantBlock({ type: 'tool_use', id: 'a', name: 'Bash', input: {} }, meta('m1', 0));
    w.assistantBlock({ type: 'tool_use', id: 'b', name: 'Bash', input: {} }, meta('m1', 1));
    w.toolResult({ type: 'tool_result', tool_use_id: 'a', content: 'fine' }, 'fine', { id: 'a' });
    w.close();
    const msgs = loadSessionMessages(file);
    expect(msgs[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'fine' },
        { type: 'tool_result', tool_use_id: 'b', content: LOST_RESULT_TEXT, is_error: true },
      ],
    });
  });

  it('resumeSession returns the chain tail, the prompt snapshot and the cost state', () => {
    const file = path.join(dir, 'res.jsonl');
    const w = new TranscriptWriter({ file, sessionId: 'S', cwd: '/w' });
    w.promptSnapshot([{ text: 'sys', cached: true }], { model: 'claude-x' });
    w.userContent('go', { permissionMode: 'acceptEdits' });
    const last = w.assistantBlock({ type: 'text', text: 'ok' }, meta('m1', 0));
    w.costState({
      totalCostUSD: 0.5,
      modelUsage: {},
      hasUnknownModelCost: false,
      webFetchRequests: 0,
      totalAPIDurationMs: 10,
      numTurns: 1,
    });
    w.close();
    expect(resumeSession(file)).toMatchObject({
      sessionId: 'S',
      cwd: '/w',
      lastUuid: last,
      systemBlocks: [{ text: 'sys', cached: true }],
      model: 'claude-x',
      permissionMode: 'acceptEdits',
      costState: { totalCostUSD: 0.5 },
      numTurns: 1,
    });
    writeFileSync(path.join(dir, 'empty.jsonl'), 'not json\n');
    expect(() => resumeSession(path.join(dir, 'empty.jsonl'))).toThrow(/no session/);
  });
});
