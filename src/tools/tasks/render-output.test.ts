import { describe, expect, it } from 'vitest';
import { OutputAccumulator } from './output-accumulator.js';
import { renderOutput, truncationMarker } from './render-output.js';

function accumulate(text: string | Uint8Array, keepChars = 30_000, chunkBytes = 4096): OutputAccumulator {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const acc = new OutputAccumulator({ headChars: keepChars, tailChars: keepChars });
  for (let i = 0; i < bytes.length; i += chunkBytes) acc.feed(bytes.subarray(i, i + chunkBytes));
  acc.end();
  return acc;
}

/** Parses every marker of a rendered text and sums its counts. */
function markerTotals(text: string): { lines: number; chars: number; markers: number } {
  let lines = 0;
  let chars = 0;
  let markers = 0;
  for (const m of text.matchAll(/\[\.\.\. (\d+) lines? \((\d+) chars?\) truncated \.\.\.\]/g)) {
    lines += Number(m[1]);
    chars += Number(m[2]);
    markers++;
  }
  return { lines, chars, markers };
}

const numbered = (n: number, width = 20) =>
  Array.from({ length: n }, (_, i) => `line ${String(i).padStart(6, '0')} ${'x'.repeat(width)}`).join('\n') +
  '\n';

describe('OutputAccumulator', () => {
  it.each([
    ['', 0, 0, 'empty output has no lines'],
    ['a', 1, 0, 'a last line without newline counts'],
    ['a\n', 1, 1, 'one terminated line'],
    ['a\nb\nc', 3, 2, 'unterminated last line'],
    ['\n\n', 2, 2, 'blank lines count'],
  ])('%j → %i lines, %i newlines (%s)', (text, lines, newlines) => {
    const acc = accumulate(text);
    expect(acc.lines).toBe(lines);
    expect(acc.newlines).toBe(newlines);
    expect(acc.chars).toBe(text.length);
  });

  it('decodes invalid UTF-8 (0xff 0xfe) with replacement characters instead of throwing', () => {
    const acc = accumulate(new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0x0a]));
    expect(acc.head).toBe('a\uFFFD\uFFFDb\n');
    expect(acc.bytes).toBe(5);
  });

  it('keeps a multi-byte character whole when it is split across chunks', () => {
    const acc = accumulate('héllo wörld €\n', 30_000, 1);
    expect(acc.head).toBe('héllo wörld €\n');
  });

  it('keeps only head and tail in memory for a large output, with exact totals', () => {
    const text = numbered(100_000);
    const acc = accumulate(text, 1000, 65_536);
    expect(acc.head).toBe(text.slice(0, 1000));
    expect(acc.tail).toBe(text.slice(-1000));
    expect(acc.chars).toBe(text.length);
    expect(acc.newlines).toBe(100_000);
  });

  it('records error-looking lines beyond the head with their line numbers', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => (i === 500 ? 'ERROR: disk full' : `ok ${i}`));
    const acc = accumulate(`${lines.join('\n')}\n`, 100, 7);
    expect(acc.errorLines).toEqual([expect.objectContaining({ lineIndex: 500, text: 'ERROR: disk full' })]);
  });
});

describe('renderOutput', () => {
  it('returns a short output whole, without trailing newlines', () => {
    expect(renderOutput(accumulate('a\nb\n\n'), 100)).toEqual({
      text: 'a\nb',
      truncated: false,
      omittedChars: 0,
      omittedLines: 0,
    });
  });

  it.each([
    [1_000, 'small budget'],
    [30_000, 'the Bash default'],
    [10_000, 'the failure budget'],
  ])('stays within a %i-character budget and counts what it dropped exactly (%s)', (budget) => {
    const text = numbered(50_000);
    const acc = accumulate(text, 30_000, 65_536);
    const rendered = renderOutput(acc, budget);
    expect(rendered.truncated).toBe(true);
    expect(rendered.text.length).toBeLessThanOrEqual(budget);
    const totals = markerTotals(rendered.text);
    expect(totals.chars).toBe(rendered.omittedChars);
    expect(totals.lines).toBe(rendered.omittedLines);
    const shown = rendered.text.replace(/\[\.\.\. .*? truncated \.\.\.\]\n/g, '');
    // Everything shown plus everything dropped is the whole output (the final newline is trimmed).
    expect(shown.length + 1 + rendered.omittedChars).toBe(text.length);
    expect(rendered.omittedLines + shown.split('\n').length).toBe(50_000);
    expect(rendered.text.startsWith('line 000000')).toBe(true);
    expect(rendered.text.endsWith(`line 049999 ${'x'.repeat(20)}`)).toBe(true);
  });

  it('keeps error-looking lines from the middle, between markers', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      i === 7_000 ? 'src/a.ts:3:1 error TS2322: bad type' : i === 12_000 ? 'FATAL: out of memory' : `ok ${i}`,
    );
    const rendered = renderOutput(accumulate(`${lines.join('\n')}\n`, 30_000, 65_536), 5_000);
    expect(rendered.text).toContain('\nsrc/a.ts:3:1 error TS2322: bad type\n');
    expect(rendered.text).toContain('\nFATAL: out of memory\n');
    expect(markerTotals(rendered.text).markers).toBe(3);
    expect(rendered.text.length).toBeLessThanOrEqual(5_000);
  });

  it('cuts a single huge line mid-line and still counts exactly', () => {
    const text = 'y'.repeat(100_000);
    const rendered = renderOutput(accumulate(text, 30_000, 65_536), 2_000);
    expect(rendered.omittedLines).toBe(0);
    expect(
      rendered.text.replace(/\n?\[\.\.\. .*? truncated \.\.\.\]\n/, '').length + rendered.omittedChars,
    ).toBe(100_000);
  });

  it('writes the marker in a fixed form', () => {
    expect(truncationMarker(1, 1)).toBe('[... 1 line (1 char) truncated ...]');
    expect(truncationMarker(12, 345)).toBe('[... 12 lines (345 chars) truncated ...]');
  });
});
