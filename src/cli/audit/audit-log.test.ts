import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendAuditLine, hookLogPath, logGenerations, logMaxBytes } from './audit-log.js';
import { SUMMARY_MAX_CHARS, summariseInput } from './input-summary.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-audit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the audit log file', () => {
  it('is created 0600 inside a 0700 directory, one JSON line per entry with its time', () => {
    const file = path.join(dir, 'logs', 'hook-log.jsonl');
    appendAuditLine({ GANTRY_HOOK_LOG: file }, { decision: 'allow', tool: 'Read' });
    appendAuditLine({ GANTRY_HOOK_LOG: file }, { decision: 'deny', tool: 'Bash' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.decision)).toEqual(['allow', 'deny']);
    expect(Number.isFinite(Date.parse(lines[0].time))).toBe(true);
  });

  it('narrows an existing file that others can read to 0600', () => {
    const file = path.join(dir, 'hook-log.jsonl');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    appendAuditLine({ GANTRY_HOOK_LOG: file }, { decision: 'ask' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rotates at the size cap and keeps three older generations, dropping the oldest', () => {
    const file = path.join(dir, 'hook-log.jsonl');
    const env = { GANTRY_HOOK_LOG: file, GANTRY_HOOK_LOG_MAX_BYTES: '2048' };
    for (let i = 0; i < 200; i++) appendAuditLine(env, { n: i, pad: 'x'.repeat(80) });
    const gens = logGenerations(file);
    expect(gens.every((g) => existsSync(g))).toBe(true);
    expect(existsSync(`${file}.4`)).toBe(false);
    for (const g of gens) expect(statSync(g).size).toBeLessThanOrEqual(2048);
    const newest = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).n);
    expect(newest.at(-1)).toBe(199);
  });

  it.each([
    ['off turns logging off', { GANTRY_HOOK_LOG: 'off' }, undefined],
    ['0 turns logging off', { GANTRY_HOOK_LOG: '0' }, undefined],
    ['default is under ~/.gantry', { HOME: '/home/u' }, '/home/u/.gantry/hook-log.jsonl'],
  ])('hookLogPath: %s', (_why, env, expected) => {
    expect(hookLogPath(env)).toBe(expected);
  });

  it.each([
    ['unset → 10 MiB', undefined, 10 * 1024 * 1024],
    ['garbage → default', 'lots', 10 * 1024 * 1024],
    ['below 1 KiB → default (a cap that small would rotate on every line)', '10', 10 * 1024 * 1024],
    ['a valid number is used', '4096', 4096],
  ])('logMaxBytes: %s', (_why, v, expected) => {
    expect(logMaxBytes({ GANTRY_HOOK_LOG_MAX_BYTES: v })).toBe(expected);
  });

  it('never throws when the log cannot be written (the decision must not change)', () => {
    const blocker = path.join(dir, 'file');
    writeFileSync(blocker, '');
    expect(() =>
      appendAuditLine({ GANTRY_HOOK_LOG: path.join(blocker, 'log.jsonl') }, { a: 1 }),
    ).not.toThrow();
  });
});

describe('summariseInput', () => {
  it.each([
    ['a Bash command is kept', { command: 'ls -la' }, { command: 'ls -la' }],
    [
      'file contents of Write are never logged, only the field name',
      { file_path: '/p/a.ts', content: 'SECRET=1' },
      { file_path: '/p/a.ts', fields: ['content'] },
    ],
    [
      'Edit strings are never logged',
      { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' },
      { file_path: '/p/a.ts', fields: ['old_string', 'new_string'] },
    ],
    [
      'a heredoc keeps its first line and the count of the rest',
      { command: 'cat > f <<EOF\none\ntwo\nthree\nEOF' },
      { command: 'cat > f <<EOF … (+4 more lines)' },
    ],
    ['non-string values of kept fields are dropped', { command: 42 }, { fields: [] }],
  ])('%s', (_why, input, expected) => {
    const out = summariseInput(input as Record<string, unknown>);
    const want = { ...expected } as Record<string, unknown>;
    if (Array.isArray(want.fields) && want.fields.length === 0) delete want.fields;
    expect(out).toEqual(want);
  });

  it(`cuts a long command at ${SUMMARY_MAX_CHARS} characters`, () => {
    const out = summariseInput({ command: `echo ${'a'.repeat(5000)}` });
    expect((out.command as string).length).toBe(SUMMARY_MAX_CHARS + 1);
  });
});
