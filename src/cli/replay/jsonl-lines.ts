/**
 * Lines of a JSONL file, read as bytes so that no line is ever held whole when it is over the
 * limit (docs/reliability.md "Replay"): a line longer than `maxLineBytes` is reported as `too-long`
 * with its length and skipped as it streams past. The file is read into one reused 1 MiB buffer, so
 * skipped bytes allocate nothing; memory stays within that buffer plus one accepted line (copied out). `\n` ends a line; a `\r` before it is dropped; the last line needs no newline.
 */
import { open } from 'node:fs/promises';

/** Default longest line `gantry replay` reads (64 MiB). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** One line: its text, or only its length when it was over the limit. */
export type JsonlLine = { kind: 'text'; text: string } | { kind: 'too-long'; bytes: number };

/** Reads `file` line by line (see the module comment). Rejects when the file cannot be read. */
export async function* readJsonlLines(
  file: string,
  maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
): AsyncGenerator<JsonlLine, void, void> {
  let parts: Buffer[] = [];
  let size = 0;
  let skipped: number | undefined;
  const finish = (): JsonlLine => {
    if (skipped !== undefined) {
      const bytes = skipped;
      skipped = undefined;
      return { kind: 'too-long', bytes };
    }
    let line = Buffer.concat(parts, size);
    parts = [];
    size = 0;
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    return { kind: 'text', text: line.toString('utf8') };
  };
  const take = (piece: Buffer): void => {
    if (piece.length === 0) return;
    if (skipped !== undefined) skipped += piece.length;
    else if (size + piece.length > maxLineBytes) {
      skipped = size + piece.length;
      parts = [];
      size = 0;
    } else {
      parts.push(Buffer.from(piece)); // a copy: the read buffer is reused
      size += piece.length;
    }
  };
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      let buf = chunk.subarray(0, bytesRead);
      for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a)) {
        take(buf.subarray(0, nl));
        yield finish();
        buf = buf.subarray(nl + 1);
      }
      take(buf);
    }
  } finally {
    await handle.close();
  }
  if (size > 0 || skipped !== undefined) yield finish();
}
