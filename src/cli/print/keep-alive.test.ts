/**
 * Keep-alive lines (keep-alive.ts): written only while idle, on the interval, never after stop,
 * and the timer never holds the process open. Fake timers stand in for the clock; the lines go
 * through the real LineWriter into a stream.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEEP_ALIVE_DEFAULT_MS, KeepAlive, keepAliveIntervalMs } from './keep-alive.js';
import { LineWriter } from './line-writer.js';

afterEach(() => {
  vi.useRealTimers();
});

function sink() {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (c: string) => (text += c));
  return {
    out: new LineWriter(stream),
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  };
}

describe('KeepAlive', () => {
  it('writes {"type":"keep_alive"} every interval while idle, none while busy, none after stop', async () => {
    vi.useFakeTimers();
    const { out, lines } = sink();
    const k = new KeepAlive(out, 1_000);
    k.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(k.count).toBe(3);
    k.setIdle(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(k.count).toBe(3);
    k.setIdle(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(k.count).toBe(4);
    k.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(k.count).toBe(4);
    await out.flush();
    expect(lines()).toEqual(Array.from({ length: 4 }, () => ({ type: 'keep_alive' })));
  });

  it('an interval of 0 writes nothing', async () => {
    vi.useFakeTimers();
    const { out } = sink();
    const k = new KeepAlive(out, 0);
    k.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(k.count).toBe(0);
  });

  it.each([
    [undefined, KEEP_ALIVE_DEFAULT_MS, 'unset: the default'],
    ['250', 250, 'a whole number of ms'],
    ['0', 0, 'zero turns them off'],
    ['-5', KEEP_ALIVE_DEFAULT_MS, 'negative: the default'],
    ['1.5', KEEP_ALIVE_DEFAULT_MS, 'not whole: the default'],
    ['soon', KEEP_ALIVE_DEFAULT_MS, 'not a number: the default'],
  ])('GANTRY_KEEP_ALIVE_MS=%s → %d (%s)', (raw: string | undefined, expected: number, _why: string) => {
    expect(keepAliveIntervalMs({ GANTRY_KEEP_ALIVE_MS: raw })).toBe(expected);
  });
});
