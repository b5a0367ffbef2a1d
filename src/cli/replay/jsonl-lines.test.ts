/**
 * The byte-level line reader of `gantry replay`, on real files: lines split across read chunks, CRLF,
 * a missing final newline, and lines over the limit (reported with their length, never read whole).
 * Then a real `gantry replay` process on a 300 MB transcript whose bulk is one 250 MB line: the line
 * is counted as malformed, the calls around it are replayed, and the process's peak RSS (as Node
 * reports it, `process.resourceUsage().maxRSS`) stays under 300 MB.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/shared-data.js';
import { type JsonlLine, readJsonlLines } from './jsonl-lines.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function tempFile(content: string | Buffer): string {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-jsonl-'));
  const f = path.join(dir, 't.jsonl');
  writeFileSync(f, content);
  return f;
}

async function lines(file: string, max?: number): Promise<JsonlLine[]> {
  const out: JsonlLine[] = [];
  for await (const l of readJsonlLines(file, max)) out.push(l);
  return out;
}

describe('readJsonlLines', () => {
  it('splits on \\n, drops the \\r of CRLF, keeps a last line without newline', async () => {
    expect(await lines(tempFile('a\r\nb\n\nc'))).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'text', text: 'b' },
      { kind: 'text', text: '' },
      { kind: 'text', text: 'c' },
    ]);
  });

  it('keeps a multi-byte character whole across a 1 MiB chunk boundary', async () => {
    const head = 'x'.repeat(1024 * 1024 - 1);
    const got = await lines(tempFile(`${head}é\nnext\n`));
    expect(got).toEqual([
      { kind: 'text', text: `${head}é` },
      { kind: 'text', text: 'next' },
    ]);
  });

  it('reports a line over the limit by its length only, and goes on with the next line', async () => {
    const got = await lines(
      tempFile(`short\n${'y'.repeat(3 * 1024 * 1024)}\nafter\n${'z'.repeat(20)}`),
      1024 * 1024,
    );
    expect(got).toEqual([
      { kind: 'text', text: 'short' },
      { kind: 'too-long', bytes: 3 * 1024 * 1024 },
      { kind: 'text', text: 'after' },
      { kind: 'text', text: 'z'.repeat(20) },
    ]);
  });

  it('a line exactly at the limit is read', async () => {
    const got = await lines(tempFile(`${'q'.repeat(100)}\n`), 100);
    expect(got).toEqual([{ kind: 'text', text: 'q'.repeat(100) }]);
  });
});

describe('gantry replay on a 300 MB transcript with a 250 MB line (real process)', () => {
  it('counts the long line as malformed, replays the calls around it, peak RSS under 300 MB', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gantry-jsonl-'));
    const f = path.join(dir, 'big.jsonl');
    const call = (id: string, command: string) =>
      `${JSON.stringify({
        type: 'assistant',
        cwd: '/w',
        sessionId: 's',
        message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
      })}\n`;
    // A 10 MB result (a legal line under the limit) and a 250 MB line of junk (over it).
    const bigResult = `${JSON.stringify({
      type: 'user',
      cwd: '/w',
      sessionId: 's',
      message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r'.repeat(10 << 20) }] },
    })}\n`;
    const fd = openSync(f, 'w');
    writeSync(fd, call('t1', 'ls'));
    writeSync(fd, bigResult);
    const junk = Buffer.alloc(10 << 20, 0x61);
    for (let i = 0; i < 25; i++) writeSync(fd, junk);
    writeSync(fd, '\n');
    writeSync(fd, call('t2', 'git status'));
    closeSync(fd);

    const report =
      "process.on('exit',()=>process.stderr.write('maxrss_kb='+process.resourceUsage().maxRSS+'\\n'))";
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(report)}`,
        path.join(REPO_ROOT, 'bin', 'gantry.js'),
        'replay',
        f,
        '--json',
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir }, maxBuffer: 64 << 20 },
    );
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1) as string).summary;
    expect(summary).toMatchObject({ calls: 2, malformedLines: 1, oversizedLines: 1 });
    const maxRssKb = Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1]);
    expect(maxRssKb).toBeGreaterThan(0);
    expect(maxRssKb).toBeLessThan(300 * 1024);
  });
});
