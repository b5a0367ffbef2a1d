/**
 * Newline-delimited JSON on a byte stream (stdin of `--input-format stream-json`).
 *
 * - Lines end at `\n` (a `\r` before it is dropped); blank lines are skipped.
 * - A line longer than `maxLineBytes` (default 64 MB: a user message may carry base64 images) is
 *   reported as `too_long` and skipped up to its end, so memory stays bounded.
 * - A line that is not JSON is reported as `not_json` with its first 200 characters; the stream
 *   goes on (the host's next line may be fine).
 * - The last line does not need a trailing newline.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type NdjsonItem =
  | { kind: 'value'; value: unknown }
  | { kind: 'not_json'; excerpt: string; error: string }
  | { kind: 'too_long'; bytes: number };

export interface NdjsonOptions {
  maxLineBytes?: number;
}

/** Yields one item per non-blank line of `stream` until it ends. */
export async function* readNdjson(stream: Readable, options: NdjsonOptions = {}): AsyncGenerator<NdjsonItem> {
  const max = options.maxLineBytes ?? MAX_LINE_BYTES;
  const decoder = new StringDecoder('utf8');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let skippedBytes = 0;

  const lineOf = (parts: Buffer[]): NdjsonItem | undefined => {
    let text = decoder.write(Buffer.concat(parts)) + decoder.end();
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return undefined;
    try {
      return { kind: 'value', value: JSON.parse(text) };
    } catch (e) {
      return { kind: 'not_json', excerpt: text.slice(0, 200), error: (e as Error).message };
    }
  };

  for await (const chunk of stream) {
    let buf: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    while (buf.length > 0) {
      const nl = buf.indexOf(10);
      const piece = nl === -1 ? buf : buf.subarray(0, nl);
      buf = nl === -1 ? Buffer.alloc(0) : buf.subarray(nl + 1);
      if (skipping) {
        skippedBytes += piece.length;
      } else if (pendingBytes + piece.length > max) {
        skipping = true;
        skippedBytes = pendingBytes + piece.length;
        pending = [];
        pendingBytes = 0;
      } else {
        pending.push(piece);
        pendingBytes += piece.length;
      }
      if (nl === -1) break;
      if (skipping) {
        yield { kind: 'too_long', bytes: skippedBytes };
        skipping = false;
        skippedBytes = 0;
        continue;
      }
      const item = lineOf(pending);
      pending = [];
      pendingBytes = 0;
      if (item) yield item;
    }
  }
  if (skipping) yield { kind: 'too_long', bytes: skippedBytes };
  else if (pendingBytes > 0) {
    const item = lineOf(pending);
    if (item) yield item;
  }
}
