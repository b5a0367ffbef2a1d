import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BashProgress, type CommandRun, type RunCommandOptions, runCommand } from './run-command.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-run-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(command: string, extra: Partial<RunCommandOptions> = {}): RunCommandOptions {
  return {
    command,
    cwd: dir,
    timeoutMs: 60_000,
    outputFile: path.join(dir, 'out.txt'),
    signal: new AbortController().signal,
    graceMs: 2_000,
    maxOutputBytes: 5 * 1024 ** 3,
    keepChars: 30_000,
    progressIntervalMs: 0,
    tickMs: 20,
    sandboxInfo: { command, dangerouslyDisableSandbox: false, background: false },
    ...extra,
  };
}

/** Drives the generator; `onProgress` may act on each event. */
async function drive(
  opts: RunCommandOptions,
  onProgress?: (p: BashProgress) => void | Promise<void>,
): Promise<{ run: CommandRun; progress: BashProgress[] }> {
  const progress: BashProgress[] = [];
  const gen = runCommand(opts);
  for (;;) {
    const step = await gen.next();
    if (step.done) return { run: step.value, progress };
    progress.push(step.value);
    await onProgress?.(step.value);
  }
}

describe('runCommand', () => {
  it('returns output, exit code and the final physical cwd', async () => {
    const { run } = await drive(options('echo hi; cd /usr; exit 3'));
    expect(run.exit.code).toBe(3);
    expect(run.output.head).toBe('hi\n');
    expect(run.finalCwd).toBe('/usr');
    expect(run.stopReason).toBeUndefined();
  });

  it('streams progress with the latest lines and totals while the command runs', async () => {
    const marker = path.join(dir, 'go');
    const { run, progress } = await drive(
      options(`printf 'first\\nsecond\\n'; while [ ! -f ${marker} ]; do sleep 0.02; done; echo done`),
      async (p) => {
        if (p.totalLines >= 2) await writeFile(marker, '');
      },
    );
    const seen = progress.find((p) => p.totalLines >= 2)!;
    expect(seen).toMatchObject({
      type: 'bash_progress',
      output: 'first\nsecond',
      totalLines: 2,
      totalBytes: 13,
    });
    expect(run.output.head).toBe('first\nsecond\ndone\n');
  });

  it('stops the group at the timeout with SIGTERM and says so', async () => {
    const { run } = await drive(options('echo started; sleep 300', { timeoutMs: 200 }));
    expect(run.stopReason).toBe('timeout');
    expect(run.stopSignal).toBe('SIGTERM');
    expect(run.output.head).toMatch(/^started\n/);
  });

  it('escalates to SIGKILL when the command traps SIGTERM', async () => {
    const { run } = await drive(
      options("trap 'echo got TERM' TERM; echo ready; while :; do sleep 0.05; done", {
        timeoutMs: 200,
        graceMs: 300,
      }),
    );
    expect(run.stopReason).toBe('timeout');
    expect(run.stopSignal).toBe('SIGKILL');
    expect(run.exit.signal).toBe('SIGKILL');
    expect(run.output.head).toContain('got TERM');
    expect(run.finalCwd).toBeUndefined();
  });

  it('stops the group when the abort signal fires', async () => {
    const controller = new AbortController();
    const { run } = await drive(options('echo waiting; sleep 300', { signal: controller.signal }), (p) => {
      if (p.totalLines >= 1) controller.abort();
    });
    expect(run.stopReason).toBe('abort');
    expect(run.stopSignal).toBe('SIGTERM');
  });

  it('stops the group when the output passes the byte limit', async () => {
    const { run } = await drive(options('yes', { maxOutputBytes: 1_000_000 }));
    expect(run.stopReason).toBe('output-limit');
    expect(run.output.bytes).toBeLessThanOrEqual(1_000_000);
    expect(run.fileBytes).toBeGreaterThan(1_000_000);
  });

  it('streams 1 GB of output to the file with bounded memory and exact totals', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const { run } = await drive(options('yes | head -c 1000000000', { tickMs: 50 }), () => {
      peak = Math.max(peak, process.memoryUsage().rss);
    });
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(run.exit.code).toBe(0);
    expect((await stat(path.join(dir, 'out.txt'))).size).toBe(1_000_000_000);
    expect(run.fileBytes).toBe(1_000_000_000);
    expect(run.output.bytes).toBe(1_000_000_000);
    expect(run.output.newlines).toBe(500_000_000);
    expect(run.output.chars).toBe(1_000_000_000);
    // Head and tail buffers and one 1 MiB read buffer: far below the output size.
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
  }, 180_000);
});
