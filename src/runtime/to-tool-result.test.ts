import { describe, expect, it } from 'vitest';
import { AbortError, FatalError, PermissionDeniedError, ToolInputError } from '../core/index.js';
import { errorToOutcome, middleTruncate, NoSuchToolError } from './to-tool-result.js';

const meta = {
  index: 0,
  toolUseId: 't1',
  toolName: 'Bash',
  stage: 'running' as const,
  durationMs: 3200,
  aborted: false,
};

describe('errorToOutcome (the one conversion point)', () => {
  it.each([
    [
      new NoSuchToolError('No such tool available: X'),
      meta,
      'error',
      '<tool_use_error>No such tool available: X</tool_use_error>',
      'unknown tool',
    ],
    [
      new ToolInputError('bad field', 'f'),
      meta,
      'error',
      '<tool_use_error>bad field</tool_use_error>',
      'input errors are tool_use_error',
    ],
    [
      new PermissionDeniedError('denied by rule'),
      meta,
      'error',
      'denied by rule',
      'denials keep their reason',
    ],
    [
      new AbortError(),
      meta,
      'aborted',
      'Interrupted: the turn was aborted while Bash was running (after 3.2s). It may have partly completed; check its effects before running it again.',
      'abort while running',
    ],
    [
      new Error('ECONNRESET'),
      { ...meta, aborted: true },
      'aborted',
      'Interrupted: the turn was aborted while Bash was running (after 3.2s). It may have partly completed; check its effects before running it again.',
      'any error after an abort reads as the abort',
    ],
    [
      new AbortError(),
      { ...meta, stage: 'checking' as const },
      'aborted',
      'Interrupted: the turn was aborted while this Bash call was being checked (after 3.2s). Nothing was executed.',
      'abort during the permission phase',
    ],
    [
      new AbortError(),
      { ...meta, stage: 'not-started' as const },
      'not-started',
      'Not run: the turn was aborted before this Bash call started. Nothing was executed.',
      'never started',
    ],
    [
      new Error(''),
      meta,
      'error',
      'Error: Bash failed unexpectedly: no message',
      'an empty message is never empty content',
    ],
  ])('%s → %s (%s)', (error, m, status, content, _reason) => {
    const outcome = errorToOutcome(error, m);
    expect(outcome).toMatchObject({ status, content, isError: true, toolUseId: 't1', toolName: 'Bash' });
  });

  it('rethrows FatalError', () => {
    expect(() => errorToOutcome(new FatalError('stop'), meta)).toThrow(FatalError);
  });
});

describe('middleTruncate', () => {
  it('keeps short text and cuts long text around a marker', () => {
    expect(middleTruncate('short', 100)).toBe('short');
    const out = middleTruncate('a'.repeat(100) + 'b'.repeat(100), 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out).toMatch(/^a+… \[140 characters truncated\] …b+$/);
  });
});
