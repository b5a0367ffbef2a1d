/**
 * Reads the part of a task's output file that a reader has not seen yet, within a character
 * budget (the Claude Code tools reference `TaskOutput`/`BashOutput`).
 *
 * The new bytes are followed through the same bounded accumulator as foreground output, so a task
 * that printed a gigabyte costs no more memory than one that printed a line; when the new part is
 * longer than the budget the excerpt keeps head, error-looking lines and tail, with exact counts.
 * With `filter` (legacy BashOutput), only lines matching the regular expression are returned, and
 * the lines that did not match are consumed (as in Claude Code, they cannot be read again).
 */
import { stat } from 'node:fs/promises';
import { FileTail } from './file-tail.js';
import { OutputAccumulator } from './output-accumulator.js';
import { renderOutput } from './render-output.js';

/** A line longer than this is filtered without waiting for its newline. */
const MAX_PENDING_BYTES = 1024 * 1024;

export interface NewOutput {
  text: string;
  /** Offset to resume from next time (bytes). */
  nextOffset: number;
  truncated: boolean;
  /** New bytes read. */
  bytes: number;
}

/** Reads `file` from byte `offset` to its current end. A missing file reads as empty. */
export async function readNewOutput(options: {
  file: string;
  offset: number;
  budgetChars: number;
  /** Lines kept (a linear-time matcher: the pattern comes from the model). */
  filter?: { test(line: string): boolean };
  /** The task has ended: a last line without a newline is read too. */
  final?: boolean;
}): Promise<NewOutput> {
  const size = await stat(options.file).then(
    (s) => s.size,
    () => 0,
  );
  if (size <= options.offset) return { text: '', nextOffset: options.offset, truncated: false, bytes: 0 };
  const acc = new OutputAccumulator({ headChars: options.budgetChars, tailChars: options.budgetChars });
  const { filter } = options;
  if (!filter) {
    const tail = new FileTail(options.file, (chunk) => acc.feed(chunk), options.offset);
    await tail.drain(size - options.offset);
    acc.end();
    const rendered = renderOutput(acc, options.budgetChars);
    return {
      text: rendered.text,
      nextOffset: tail.position,
      truncated: rendered.truncated,
      bytes: acc.bytes,
    };
  }
  // Filtered: split the raw bytes at newlines; a trailing partial line is left for a later read
  // unless the task has ended (`final`) or the line passed MAX_PENDING_BYTES.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let consumed = 0;
  const takeLines = (bytes: Buffer) => {
    consumed += bytes.length;
    for (const line of new TextDecoder('utf-8', { fatal: false }).decode(bytes).split('\n')) {
      if (line && filter.test(line)) acc.feed(Buffer.from(`${line}\n`, 'utf8'));
    }
  };
  const tail = new FileTail(
    options.file,
    (chunk) => {
      const lastNewline = chunk.lastIndexOf(10);
      if (lastNewline < 0) {
        pending.push(Buffer.from(chunk));
        pendingBytes += chunk.length;
        if (pendingBytes > MAX_PENDING_BYTES) {
          takeLines(Buffer.concat(pending));
          pending = [];
          pendingBytes = 0;
        }
        return;
      }
      takeLines(Buffer.concat([...pending, chunk.subarray(0, lastNewline + 1)]));
      pending = [Buffer.from(chunk.subarray(lastNewline + 1))];
      pendingBytes = chunk.length - lastNewline - 1;
    },
    options.offset,
  );
  await tail.drain(size - options.offset);
  if (options.final && pendingBytes > 0) takeLines(Buffer.concat(pending));
  acc.end();
  const rendered = renderOutput(acc, options.budgetChars);
  return {
    text: rendered.text,
    nextOffset: options.offset + consumed,
    truncated: rendered.truncated,
    bytes: consumed,
  };
}
