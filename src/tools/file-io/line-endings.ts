/**
 * Line-ending detection and preservation (the Claude Code tools reference: keep a CRLF file's line endings, and follow a
 * CRLF directory's convention for new files; changelog 2.1.77 / 2.1.89 bugs of converting or
 * doubling CRLF). Text the model sends uses `\n`; these helpers convert it to the file's style
 * without ever turning an existing `\r\n` into `\r\r\n`.
 */
import { readdir, open } from 'node:fs/promises';
import path from 'node:path';

export type LineEnding = 'LF' | 'CRLF';

/** The dominant line ending of `text`: CRLF when more lines end in `\r\n` than in a bare `\n`. */
export function detectLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
    i = text.indexOf('\n', i + 1);
  }
  return crlf > lf ? 'CRLF' : 'LF';
}

/** True when `text` holds at least one `\r\n`. */
export function hasCrlf(text: string): boolean {
  return text.includes('\r\n');
}

/** Converts every bare `\n` of `text` to `\r\n`; existing `\r\n` pairs are left alone. */
export function toCrlf(text: string): string {
  return text.replace(/(?<!\r)\n/g, '\r\n');
}

/** Converts every `\r\n` to `\n`. */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** Applies `ending` to model text: CRLF converts bare `\n`; LF leaves the text as given. */
export function applyLineEnding(text: string, ending: LineEnding): string {
  return ending === 'CRLF' ? toCrlf(text) : text;
}

/** How many sibling files to sample, and how many bytes of each, for a directory's convention. */
const SAMPLE_FILES = 12;
const SAMPLE_BYTES = 4096;

/**
 * Line-ending convention of the files already in `dir`: CRLF when more sampled text files use
 * CRLF than LF, else LF (also when the directory is missing or empty). Samples at most 12 files,
 * 4 KiB each. Never throws.
 */
export async function directoryLineEnding(dir: string): Promise<LineEnding> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return 'LF';
  }
  let crlf = 0;
  let lf = 0;
  for (const name of names.sort().slice(0, SAMPLE_FILES)) {
    try {
      const handle = await open(path.join(dir, name), 'r');
      try {
        const buf = Buffer.alloc(SAMPLE_BYTES);
        const { bytesRead } = await handle.read(buf, 0, SAMPLE_BYTES, 0);
        const head = buf.subarray(0, bytesRead);
        if (head.includes(0)) continue; // binary (or UTF-16): no vote
        const text = head.toString('latin1');
        if (!text.includes('\n')) continue;
        if (detectLineEnding(text) === 'CRLF') crlf++;
        else lf++;
      } finally {
        await handle.close();
      }
    } catch {
      // unreadable sibling: no vote
    }
  }
  return crlf > lf ? 'CRLF' : 'LF';
}
