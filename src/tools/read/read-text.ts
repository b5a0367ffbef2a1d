/**
 * Reading a window of lines from a text file without loading more than needed.
 *
 * - Files up to {@link WHOLE_READ_MAX_BYTES}: read whole, decoded, split, hashed (cheap, and the
 *   whole text can be recorded for Write/Edit).
 * - Larger files: read in 4 MiB chunks into one reused buffer. Newlines are found with `Buffer.indexOf` on the raw
 *   bytes (a 0x0A byte is always a newline in UTF-8 and Latin-1); only the lines of the window are
 *   decoded, each capped at its first `maxLineChars * 4` bytes, so memory stays at a few MiB for any
 *   file and any line length. The stream stops after the window, except for files up to
 *   {@link PARTIAL_READ_HASH_MAX_BYTES}, which are read to the end to hash them (the staleness check
 *   needs it). UTF-16LE files are re-encoded to UTF-8 chunk by chunk before splitting.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { AbortError, hashContent, ToolInputError } from '../../core/index.js';
import { BINARY_SNIFF_BYTES, extensionOf, looksBinary } from '../file-io/binary.js';
import {
  bomLength,
  decodeText,
  detectEncoding,
  detectEncodingFromHead,
  type TextEncoding,
} from '../file-io/encoding.js';
import { PARTIAL_READ_HASH_MAX_BYTES } from '../file-io/freshness.js';
import { splitLines, truncateLine } from '../file-io/line-numbers.js';

/** Files up to this size (8 MiB) are read whole. */
export const WHOLE_READ_MAX_BYTES = 8 * 1024 * 1024;
/** Files up to this size (256 KiB) are read in one synchronous call: less than a thread-pool round trip. */
export const SYNC_READ_MAX_BYTES = 256 * 1024;
const STREAM_CHUNK_BYTES = 4 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

/** A window of lines read from a text file. */
export interface TextWindow {
  /** The window's lines (CR of CRLF removed), each cut to `maxLineChars` with a marker. */
  lines: string[];
  /** 1-based number of the first line of the window. */
  startLine: number;
  /** Lines in the file when `totalLinesKnown`; otherwise the last line number reached. */
  totalLines: number;
  totalLinesKnown: boolean;
  /** True when at least one line of the window was cut. */
  anyLineTruncated: boolean;
  encoding: TextEncoding;
  /** sha256 of the whole file, or '' when the file was not read to the end (too large). */
  contentHash: string;
  /** The whole decoded text, when the file was read whole. */
  fullText?: string;
}

export interface TextWindowRequest {
  /** 1-based first line. */
  offset: number;
  /** Number of lines. */
  limit: number;
  maxLineChars: number;
  sizeBytes: number;
  signal?: AbortSignal;
  /** The path to name in messages when `filePath` is a descriptor path (`/proc/self/fd/N`). */
  displayPath?: string;
  /**
   * Reads the whole file synchronously through an already open descriptor (CheckedFile.readAllSync);
   * used instead of opening `filePath` again for files up to {@link SYNC_READ_MAX_BYTES}.
   */
  readAllSync?: () => Buffer;
}

function binaryError(filePath: string): ToolInputError {
  const ext = extensionOf(filePath);
  return new ToolInputError(
    `This tool cannot read binary files: ${filePath} looks binary${ext ? ` (.${ext})` : ''}. ` +
      'Inspect it with Bash instead (e.g. `file`, `xxd | head`, or a format-specific tool such as `unzip -l`).',
    'file_path',
  );
}

/**
 * Reads lines `offset … offset+limit-1` of `filePath`.
 * @throws ToolInputError when the content looks binary; fs errors as thrown by Node; AbortError.
 */
export async function readTextWindow(filePath: string, request: TextWindowRequest): Promise<TextWindow> {
  if (request.sizeBytes <= WHOLE_READ_MAX_BYTES) return readWhole(filePath, request);
  return readStreamed(filePath, request);
}

async function readWhole(filePath: string, request: TextWindowRequest): Promise<TextWindow> {
  if (request.signal?.aborted) throw new AbortError('Read was aborted.');
  const bytes =
    request.sizeBytes <= SYNC_READ_MAX_BYTES
      ? (request.readAllSync?.() ?? readFileSync(filePath))
      : await readFile(filePath, request.signal ? { signal: request.signal } : {});
  if (looksBinary(bytes.subarray(0, BINARY_SNIFF_BYTES))) throw binaryError(request.displayPath ?? filePath);
  const encoding = detectEncoding(bytes);
  const text = decodeText(bytes, encoding);
  const all = splitLines(text);
  const window = all.slice(request.offset - 1, request.offset - 1 + request.limit);
  let anyLineTruncated = false;
  const lines = window.map((line) => {
    if (line.length > request.maxLineChars) anyLineTruncated = true;
    return truncateLine(line, request.maxLineChars);
  });
  return {
    lines,
    startLine: request.offset,
    totalLines: all.length,
    totalLinesKnown: true,
    anyLineTruncated,
    encoding,
    contentHash: hashContent(bytes),
    fullText: text,
  };
}

async function readHead(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Number of UTF-8 characters in `bytes` (bytes that are not continuation bytes). */
function countUtf8Chars(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (((bytes[i] as number) & 0xc0) !== 0x80) n++;
  return n;
}

/** Splits a byte stream into numbered lines and keeps only the window's (see module doc). */
class LineCollector {
  lineNumber = 1;
  sawBytes = false;
  readonly lines: string[] = [];
  anyLineTruncated = false;
  private parts: Buffer[] = [];
  private keptBytes = 0;
  private droppedChars = 0;
  private readonly lastLine: number;
  private readonly maxLineBytes: number;

  constructor(
    private readonly firstLine: number,
    limit: number,
    private readonly maxLineChars: number,
    private readonly encoding: 'utf8' | 'latin1',
  ) {
    this.lastLine = firstLine + limit - 1;
    this.maxLineBytes = maxLineChars * 4 + 4;
  }

  get windowDone(): boolean {
    return this.lineNumber > this.lastLine;
  }

  /** Feeds a chunk; returns true once the window is complete. */
  push(chunk: Buffer): boolean {
    if (chunk.length > 0) this.sawBytes = true;
    let pos = 0;
    while (pos < chunk.length && !this.windowDone) {
      const nl = chunk.indexOf(10, pos);
      const end = nl === -1 ? chunk.length : nl;
      if (this.lineNumber >= this.firstLine) this.keep(chunk, pos, end);
      if (nl === -1) return false;
      if (this.lineNumber >= this.firstLine) this.emit();
      this.lineNumber++;
      pos = nl + 1;
    }
    if (!this.windowDone) return false;
    // Past the window: count the remaining newlines of this chunk for totalLines.
    for (let i = chunk.indexOf(10, pos); i !== -1; i = chunk.indexOf(10, i + 1)) this.lineNumber++;
    return true;
  }

  /** Counts newlines only (after the window, while hashing to the end). */
  count(chunk: Buffer): void {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.lineNumber++;
  }

  /** End of file: the text after the last newline is a line too (even empty), unless the file is empty. */
  finish(): void {
    if (!this.sawBytes) {
      this.lineNumber = 0;
      return;
    }
    if (this.lineNumber >= this.firstLine && this.lineNumber <= this.lastLine) this.emit();
  }

  private keep(chunk: Buffer, start: number, end: number): void {
    const room = this.maxLineBytes - this.keptBytes;
    const take = Math.min(end - start, Math.max(0, room));
    if (take > 0) {
      this.parts.push(Buffer.from(chunk.subarray(start, start + take)));
      this.keptBytes += take;
    }
    if (end - start > take) {
      const dropped = chunk.subarray(start + take, end);
      this.droppedChars += this.encoding === 'latin1' ? dropped.length : countUtf8Chars(dropped);
    }
  }

  private emit(): void {
    let line = Buffer.concat(this.parts).toString(this.encoding);
    if (this.droppedChars === 0 && line.endsWith('\r')) line = line.slice(0, -1);
    const total = line.length + this.droppedChars;
    if (total > this.maxLineChars) this.anyLineTruncated = true;
    this.lines.push(truncateLine(line, this.maxLineChars, total));
    this.parts = [];
    this.keptBytes = 0;
    this.droppedChars = 0;
  }
}

async function readStreamed(filePath: string, request: TextWindowRequest): Promise<TextWindow> {
  const head = await readHead(filePath);
  if (looksBinary(head.subarray(0, BINARY_SNIFF_BYTES))) throw binaryError(request.displayPath ?? filePath);
  const encoding = detectEncodingFromHead(head);
  const hashWhole = request.sizeBytes <= PARTIAL_READ_HASH_MAX_BYTES;
  const hash = hashWhole ? createHash('sha256') : undefined;
  const collector = new LineCollector(
    request.offset,
    request.limit,
    request.maxLineChars,
    encoding === 'latin1' ? 'latin1' : 'utf8',
  );
  const utf16 = encoding === 'utf16le' ? new StringDecoder('utf16le') : undefined;
  let skip = bomLength(encoding);
  let reachedEnd = true;
  const handle = await open(filePath, 'r');
  try {
    // One buffer, reused: reading into it is several times faster than a stream's fresh chunks.
    const buffer = Buffer.allocUnsafe(STREAM_CHUNK_BYTES);
    let position = 0;
    for (;;) {
      if (request.signal?.aborted) throw new AbortError('Read was aborted.');
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const raw = buffer.subarray(0, bytesRead);
      hash?.update(raw);
      let chunk = raw;
      if (skip > 0) {
        const n = Math.min(skip, chunk.length);
        chunk = chunk.subarray(n);
        skip -= n;
      }
      if (utf16) chunk = Buffer.from(utf16.write(chunk), 'utf8');
      if (collector.windowDone) {
        collector.count(chunk);
        continue;
      }
      if (collector.push(chunk) && !hashWhole) {
        reachedEnd = false;
        break;
      }
    }
  } finally {
    await handle.close();
  }
  if (reachedEnd) {
    if (utf16) collector.push(Buffer.from(utf16.end(), 'utf8'));
    collector.finish();
  }
  return {
    lines: collector.lines,
    startLine: request.offset,
    totalLines: collector.lineNumber,
    totalLinesKnown: reachedEnd,
    anyLineTruncated: collector.anyLineTruncated,
    encoding,
    contentHash: hash ? hash.digest('hex') : '',
  };
}
