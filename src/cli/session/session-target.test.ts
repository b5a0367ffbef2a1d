import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { transcriptPathFor } from '../../loop/transcript/paths.js';
import { TranscriptWriter } from '../../loop/transcript/writer.js';
import { resolveSessionTarget, SessionTargetError } from './session-target.js';

let root: string;
let world: { cwd: string; gantryHome: string };

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const NEW = '33333333-3333-4333-8333-333333333333';

function writeSession(id: string, prompt: string, mtimeSec: number): string {
  const file = transcriptPathFor(world.gantryHome, world.cwd, id);
  const w = new TranscriptWriter({ file, sessionId: id, cwd: world.cwd, fsync: 'never' });
  w.userContent(prompt, { permissionMode: 'default' });
  w.assistantBlock(
    { type: 'text', text: `answer to ${prompt}` },
    {
      messageId: `msg_${id.slice(0, 4)}`,
      model: 'm',
      usage: {
        input_tokens: 1,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
      stopReason: 'end_turn',
      blockIndex: 0,
    },
  );
  w.close();
  utimesSync(file, mtimeSec, mtimeSec);
  return file;
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'gantry-target-'));
  world = { cwd: path.join(root, 'proj'), gantryHome: path.join(root, 'home', '.gantry') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('resolveSessionTarget', () => {
  it('a new session gets a new id and a file under projects/<slug>/', () => {
    const t = resolveSessionTarget({}, world);
    expect(t.kind).toBe('new');
    expect(t.transcriptPath).toBe(transcriptPathFor(world.gantryHome, world.cwd, t.sessionId));
    expect(t.resume).toBeUndefined();
  });

  it('--session-id is used as given, and refused when that session exists', () => {
    expect(resolveSessionTarget({ sessionId: NEW }, world).sessionId).toBe(NEW);
    writeSession(A, 'one', 1000);
    expect(() => resolveSessionTarget({ sessionId: A }, world)).toThrow(/already in use/);
  });

  it('--continue takes the most recently written session of this cwd', () => {
    writeSession(A, 'older', 1000);
    writeSession(B, 'newer', 2000);
    const t = resolveSessionTarget({ continue: true }, world);
    expect(t).toMatchObject({ kind: 'continue', sessionId: B });
    expect(t.resume?.messages[0]).toEqual({ role: 'user', content: 'newer' });
    expect(t.transcriptPath).toBe(transcriptPathFor(world.gantryHome, world.cwd, B));
  });

  it('--continue with no earlier session is a clear error', () => {
    expect(() => resolveSessionTarget({ continue: true }, world)).toThrow(SessionTargetError);
    expect(() => resolveSessionTarget({ continue: true }, world)).toThrow(/no earlier session/);
  });

  it('--resume <id> restores that session and appends to its file', () => {
    writeSession(A, 'first', 1000);
    writeSession(B, 'second', 2000);
    const t = resolveSessionTarget({ resume: A }, world);
    expect(t).toMatchObject({
      kind: 'resume',
      sessionId: A,
      transcriptPath: transcriptPathFor(world.gantryHome, world.cwd, A),
    });
    expect(t.resume?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('--resume accepts a .jsonl path; an unknown id names the directory it looked in', () => {
    const file = writeSession(A, 'first', 1000);
    expect(resolveSessionTarget({ resume: file }, world).sessionId).toBe(A);
    expect(() => resolveSessionTarget({ resume: B }, world)).toThrow(/no session 2222.*looked in/);
    expect(() => resolveSessionTarget({ resume: '../../etc/passwd' }, world)).toThrow(/not a session id/);
  });

  it('--fork-session copies the conversation into a new id and leaves the original alone', () => {
    const original = writeSession(A, 'first', 1000);
    const before = readFileSync(original, 'utf8');
    const t = resolveSessionTarget({ resume: A, forkSession: true, sessionId: NEW }, world);
    expect(t).toMatchObject({ kind: 'fork', sessionId: NEW });
    expect(readFileSync(original, 'utf8')).toBe(before);
    const forked = readFileSync(t.transcriptPath as string, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(forked.every((l) => l.sessionId === NEW)).toBe(true);
    expect(t.resume?.sessionId).toBe(NEW);
    expect(t.resume?.messages).toEqual(
      resolveSessionTarget({ resume: A, noSessionPersistence: true }, world).resume?.messages,
    );
  });

  it('--no-session-persistence reads a resumed session but writes nothing', () => {
    writeSession(A, 'first', 1000);
    const t = resolveSessionTarget({ resume: A, noSessionPersistence: true }, world);
    expect(t.transcript).toEqual({ persist: false });
    expect(t.transcriptPath).toBeUndefined();
    expect(resolveSessionTarget({ noSessionPersistence: true }, world).transcript).toEqual({
      persist: false,
    });
  });

  it('a torn last line is skipped with a note, the rest restores', () => {
    const file = writeSession(A, 'first', 1000);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"type":"user","mess`);
    const t = resolveSessionTarget({ resume: A }, world);
    expect(t.resume?.messages).toHaveLength(2);
    expect(t.notes.join('\n')).toMatch(/1 unreadable line\(s\) skipped \(the last line was cut off\)/);
  });
});
