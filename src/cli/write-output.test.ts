/**
 * writeOutput in real processes: the text arrives whole and in order when the reader is slower than
 * the writer (the descriptor a host hands a child is non-blocking, so a large write meets `EAGAIN`
 * and goes on through the stream), and a reader that closes the pipe early ends the command with exit
 * 0 under `exitOnClosedPipe`, or makes the write throw without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MODULE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'write-output.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'gantry-write-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A child that writes `parts` (sizes in bytes, each a run of its own letter) with writeOutput. */
function childScript(name: string, options: string): string {
  const file = path.join(dir, `${name}.ts`);
  writeFileSync(
    file,
    [
      `import { writeOutput } from ${JSON.stringify(MODULE)};`,
      'const sizes = JSON.parse(process.argv[2]);',
      "sizes.forEach((n, i) => writeOutput('stdout', String.fromCharCode(97 + i).repeat(n), " +
        `${options}));`,
      "writeOutput('stderr', 'done');",
    ].join('\n'),
  );
  return file;
}

function expected(sizes: number[]): string {
  return sizes.map((n, i) => String.fromCharCode(97 + i).repeat(n)).join('');
}

describe('writeOutput', () => {
  it('delivers every byte in order to a reader that starts late (the EAGAIN path)', async () => {
    const script = childScript('slow-reader', '{}');
    // 4 MB is far more than a socket or pipe buffer holds; the small parts after it must follow it
    const sizes = [4_000_000, 10, 3, 200_000];
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(sizes)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // the reader waits for the child's first write to fill the buffer before reading anything
    await new Promise((r) => setTimeout(r, 300));
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stdout.resume();
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('done');
    const out = Buffer.concat(chunks).toString();
    expect(out.length).toBe(expected(sizes).length);
    expect(out === expected(sizes)).toBe(true);
  });

  it('ends with exit 0 and says nothing when the reader closes the pipe, with exitOnClosedPipe', () => {
    const script = childScript('closed-quiet', '{ exitOnClosedPipe: true }');
    const r = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" --import tsx "${script}" '[4000000, 5]' 2>"${dir}/quiet.err" | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout.trim()).toBe('0');
    // no error report (the child's own `done` may or may not come first: when the pipe was
    // non-blocking, the rest went through the stream and the closed pipe is found after it)
    expect(readFileSync(path.join(dir, 'quiet.err'), 'utf8')).not.toMatch(/EPIPE|Error/);
  });

  it('throws EPIPE for a closed pipe without exitOnClosedPipe (the caller decides)', () => {
    const script = childScript('closed-throws', '{}');
    const r = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" --import tsx "${script}" '[4000000, 5]' 2>"${dir}/throws.err" | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout.trim()).not.toBe('0');
    expect(readFileSync(path.join(dir, 'throws.err'), 'utf8')).toContain('EPIPE');
  });
});
