/**
 * Writes the answer of a one-shot command (`gantry check`, `gantry hook` in-process) straight to its
 * file descriptor with `fs.writeSync`. The first touch of `process.stdout` builds a stream object,
 * and for a pipe (how hosts and scripts read a hook or a check) that loads Node's `net` and stream
 * modules: a few milliseconds of a start that should cost little more than Node's own
 * (docs/startup.md, "What a cold decision costs").
 *
 * Node writes to pipes and files synchronously on Linux, so the order of the bytes is the same as
 * through the streams. When the descriptor is non-blocking and full (`EAGAIN`), the rest goes
 * through the stream, which waits until it can write; nothing is dropped.
 */
import { writeSync } from 'node:fs';
import { exitQuietlyOnClosedPipe } from './closed-pipe.js';

export type OutputStream = 'stdout' | 'stderr';

/** The descriptors that went over to their stream after an `EAGAIN`: later text follows it there, in order. */
const throughStream = new Set<OutputStream>();

/**
 * Writes all of `text` to standard output or error. With `exitOnClosedPipe` (a command whose reader
 * may stop early, `gantry check … | head`), a closed pipe on standard output ends the process quietly
 * with exit 0, as `exitQuietlyOnClosedPipe` (closed-pipe.ts) does for the stream.
 * @throws the write's error (`EPIPE` for a closed pipe without `exitOnClosedPipe`, …); `EAGAIN` is
 *   handled as described above.
 */
export function writeOutput(
  stream: OutputStream,
  text: string,
  o: { exitOnClosedPipe?: boolean } = {},
): void {
  if (text === '') return;
  if (throughStream.has(stream)) {
    process[stream].write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  const fd = stream === 'stdout' ? 1 : 2;
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE' && stream === 'stdout' && o.exitOnClosedPipe) process.exit(0);
      if (code !== 'EAGAIN') throw error;
      if (stream === 'stdout' && o.exitOnClosedPipe) exitQuietlyOnClosedPipe();
      throughStream.add(stream);
      process[stream].write(bytes.subarray(written));
      return;
    }
  }
}
