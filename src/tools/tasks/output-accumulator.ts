/**
 * Bounded view of a command's output, however much it prints (
 * docs/architecture.md "Truncation keeps the head, the tail and lines that look like errors").
 *
 * Sequence: the output file is read chunk by chunk → `feed(bytes)` decodes UTF-8 with replacement
 * (bytes 0xff 0xfe become U+FFFD, never an exception) → keeps the first `headChars` characters, the
 * last `tailChars` characters, up to `maxErrorLines` error-looking lines (with their offsets and
 * line numbers) and exact totals (bytes, characters, newlines) → `end()` flushes the decoder.
 * Memory is O(headChars + tailChars + maxErrorLines × maxErrorLineChars + one chunk), independent of
 * the output size. `render*` (render-output.ts) turns the view into model text.
 */

/** Lines that look like errors, kept when the middle of a long output is dropped. */
export const ERROR_LINE_PATTERN =
  /(?:error|fail|fatal|panic|exception|traceback|denied|cannot|not found|segmentation fault|abort)/gi;

/** A line of the output that looked like an error. */
export interface ErrorLine {
  /** Character offset (UTF-16 units) of the line's first character in the whole output. */
  offset: number;
  /** Character offset just past the line's last character (before its newline). */
  endOffset: number;
  /** 0-based line number. */
  lineIndex: number;
  /** The line, cut to `maxErrorLineChars` characters. */
  text: string;
}

export interface OutputAccumulatorOptions {
  /** Characters kept from the start of the output. */
  headChars: number;
  /** Characters kept from the end of the output. */
  tailChars: number;
  /** Error-looking lines kept (the first ones seen outside the head). Default 100. */
  maxErrorLines?: number;
  /** Longest error line kept, in characters. Default 500. */
  maxErrorLineChars?: number;
}

/** Bytes decoded into one string at a time (below V8's large-object threshold). */
const DECODE_SLICE_BYTES = 32 * 1024;

/** A line longer than this is scanned for errors in pieces instead of waiting for its newline. */
const MAX_CARRY_CHARS = 64 * 1024;

export class OutputAccumulator {
  /** Bytes fed so far. */
  bytes = 0;
  /** Characters (UTF-16 units) decoded so far. */
  chars = 0;
  /** Newline characters seen so far. */
  newlines = 0;
  /** First `headChars` characters. */
  head = '';
  /** Error-looking lines after the head, in order. */
  readonly errorLines: ErrorLine[] = [];
  /** Error-looking lines seen but not kept because `maxErrorLines` was reached. */
  droppedErrorLines = 0;

  private tailBuffer = '';
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private readonly headChars: number;
  private readonly tailChars: number;
  private readonly maxErrorLines: number;
  private readonly maxErrorLineChars: number;
  /** Text after the last newline, not yet scanned for errors; starts at `carryOffset`. */
  private carry = '';
  private carryOffset = 0;
  /** Newlines before `carryOffset`. */
  private newlinesBeforeCarry = 0;
  private ended = false;

  constructor(options: OutputAccumulatorOptions) {
    this.headChars = options.headChars;
    this.tailChars = options.tailChars;
    this.maxErrorLines = options.maxErrorLines ?? 100;
    this.maxErrorLineChars = options.maxErrorLineChars ?? 500;
  }

  /**
   * Feeds raw output bytes. Never throws on invalid UTF-8. Large chunks are decoded in slices of
   * {@link DECODE_SLICE_BYTES}, so every temporary string stays small enough for V8's young
   * generation (a 1 MiB string would go to large-object space and linger until a full GC).
   */
  feed(chunk: Uint8Array): void {
    if (this.ended) throw new Error('OutputAccumulator.feed after end()');
    this.bytes += chunk.length;
    for (let start = 0; start < chunk.length; start += DECODE_SLICE_BYTES) {
      const slice = chunk.subarray(start, start + DECODE_SLICE_BYTES);
      // A 0x0A byte is always a whole '\n' in UTF-8 (never inside a multi-byte sequence, never
      // held back by the streaming decoder), so the byte count is the decoded text's count.
      let newlines = 0;
      for (let i = 0; i < slice.length; i++) if (slice[i] === 10) newlines++;
      this.newlines += newlines;
      this.addText(this.decoder.decode(slice, { stream: true }), newlines);
    }
  }

  /** Flushes the decoder (an incomplete trailing UTF-8 sequence becomes U+FFFD) and scans the last line. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.addText(this.decoder.decode(), 0);
    this.scan(this.carry, this.carryOffset, this.newlinesBeforeCarry);
    this.carry = '';
  }

  /** The last `tailChars` characters (fewer when the output is shorter). */
  get tail(): string {
    return this.tailBuffer.length > this.tailChars
      ? this.tailBuffer.slice(this.tailBuffer.length - this.tailChars)
      : this.tailBuffer;
  }

  /** True when every character of the output is in `head`. */
  get complete(): boolean {
    return this.chars === this.head.length;
  }

  /** Number of lines: newlines, plus one for a last line without a newline. 0 for empty output. */
  get lines(): number {
    if (this.chars === 0) return 0;
    return this.newlines + (this.lastChar() === '\n' ? 0 : 1);
  }

  private lastChar(): string {
    return this.tailBuffer.length ? this.tailBuffer[this.tailBuffer.length - 1]! : '';
  }

  /** Adds decoded text holding `newlines` newline characters. */
  private addText(text: string, newlines: number): void {
    if (!text) return;
    const startOffset = this.chars;
    this.chars += text.length;
    if (this.head.length < this.headChars) this.head += text.slice(0, this.headChars - this.head.length);
    if (text.length >= this.tailChars) {
      this.tailBuffer = text.slice(text.length - this.tailChars);
    } else {
      this.tailBuffer += text;
      if (this.tailBuffer.length > 2 * this.tailChars + 1024) {
        this.tailBuffer = this.tailBuffer.slice(this.tailBuffer.length - this.tailChars);
      }
    }
    this.scanForErrors(text, startOffset, newlines);
  }

  /**
   * Scans complete lines of `carry + text` for errors; keeps the unfinished last line as carry.
   * `textNewlines` is the number of newlines in `text` (the carry never holds one).
   */
  private scanForErrors(text: string, textOffset: number, textNewlines: number): void {
    if (this.carry.length === 0) this.carryOffset = textOffset;
    const pending = this.carry.length === 0 ? text : this.carry + text;
    const lastNewline = pending.lastIndexOf('\n');
    if (lastNewline < 0) {
      if (pending.length <= MAX_CARRY_CHARS) {
        this.carry = pending;
        return;
      }
      // A very long line: scan what we have and start a new carry (the line number is unchanged).
      this.scan(pending, this.carryOffset, this.newlinesBeforeCarry);
      this.carry = '';
      return;
    }
    const complete = pending.slice(0, lastNewline + 1);
    this.scan(complete, this.carryOffset, this.newlinesBeforeCarry);
    this.newlinesBeforeCarry += textNewlines;
    this.carryOffset += complete.length;
    this.carry = pending.slice(lastNewline + 1);
  }

  /** Records error-looking lines of `region` (which starts at `regionOffset`, after `newlinesBefore` newlines). */
  private scan(region: string, regionOffset: number, newlinesBefore: number): void {
    if (!region) return;
    const pattern = new RegExp(ERROR_LINE_PATTERN.source, 'gi');
    let countedTo = 0;
    let lineIndex = newlinesBefore;
    for (let match = pattern.exec(region); match; match = pattern.exec(region)) {
      const lineStart = region.lastIndexOf('\n', match.index - 1) + 1;
      let lineEnd = region.indexOf('\n', match.index);
      if (lineEnd < 0) lineEnd = region.length;
      pattern.lastIndex = lineEnd + 1;
      const offset = regionOffset + lineStart;
      if (offset + (lineEnd - lineStart) <= this.headChars) continue; // already shown in the head
      if (this.errorLines.length >= this.maxErrorLines) {
        this.droppedErrorLines++;
        continue;
      }
      for (let i = countedTo; i < lineStart; i++) if (region.charCodeAt(i) === 10) lineIndex++;
      countedTo = lineStart;
      this.errorLines.push({
        offset,
        endOffset: regionOffset + lineEnd,
        lineIndex,
        text: region.slice(lineStart, Math.min(lineEnd, lineStart + this.maxErrorLineChars)),
      });
    }
  }
}
