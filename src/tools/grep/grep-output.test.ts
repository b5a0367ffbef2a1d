import { describe, expect, it } from 'vitest';
import { type GrepOutput, renderGrepOutput } from './grep-output.js';

const base = { filenames: [], numFiles: 0, numEntries: 0, hasMore: false } as const;

describe('renderGrepOutput', () => {
  it.each([
    [{ ...base, mode: 'files_with_matches', totalEntries: 0 }, 'No files found', 'no file matched'],
    [
      { ...base, mode: 'files_with_matches', filenames: ['a'], numFiles: 1, numEntries: 1, totalEntries: 1 },
      'Found 1 file\na',
      'singular',
    ],
    [
      { ...base, mode: 'files_with_matches', totalEntries: 3, appliedOffset: 9 },
      'No entries at this offset: offset=9, but the search has only 3 files. Use a smaller offset (offset=0 starts from the beginning).',
      'offset past the end',
    ],
    [{ ...base, mode: 'content', totalEntries: 0 }, 'No matches found', 'content, nothing'],
    [
      {
        ...base,
        mode: 'content',
        content: 'a:1:x',
        numLines: 1,
        numEntries: 1,
        hasMore: true,
        appliedLimit: 1,
      },
      'a:1:x\n\n[Showing lines 1-1. Use offset=1 to see more.]',
      'content page with more, total unknown',
    ],
    [{ ...base, mode: 'count', totalEntries: 0 }, 'No matches found', 'count, nothing'],
    [
      { ...base, mode: 'count', content: 'a:1', numFiles: 1, numEntries: 1, numMatches: 1, totalEntries: 1 },
      'a:1\n\nFound 1 total occurrence across 1 file.',
      'count, singular',
    ],
    [
      { ...base, mode: 'files_with_matches', totalEntries: 0, timedOut: true },
      'No files found\n\n(The search timed out; results are incomplete. Search a smaller path or use a more specific pattern or glob.)',
      'time limit note',
    ],
  ] as Array<[GrepOutput, string, string]>)('%j (%s)', (output, expected) => {
    expect(renderGrepOutput(output)).toBe(expected);
  });
});
