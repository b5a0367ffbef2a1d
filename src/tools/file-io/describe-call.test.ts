/**
 * The file tools' describer on a path no file can have: no target, an `ask` finding naming the
 * field (the hook asks with it; the tools refuse such a path in validateInput first).
 */
import { describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/index.js';
import { describeFileCall } from './describe-call.js';

const world = { cwd: '/home/user/project', home: '/home/user', resolver: mapPathResolver({}) };

describe('describeFileCall with a NUL or an unpaired surrogate', () => {
  it.each([
    ['Read', 'read', 'file_path', '/home/user/project/a.ts\0/etc/passwd', /file_path contains a NUL/],
    ['Write', 'write', 'file_path', '/home/user/project/\ud800x', /unpaired UTF-16 surrogate/],
    ['NotebookEdit', 'write', 'notebook_path', 'n\0.ipynb', /notebook_path contains a NUL/],
  ] as const)(
    '%s %s: asks naming the field, with no known target',
    (toolName, kind, field, value, message) => {
      const d = describeFileCall({ toolName, kind, field, input: { [field]: value }, world });
      expect(d.findings).toEqual([
        { id: 'INVALID_PATH', message: expect.stringMatching(message), behavior: 'ask' },
      ]);
      expect(d.ruleContents).toEqual([]);
      expect(d.effects.every((e) => e.certainty === 'unknown')).toBe(true);
    },
  );
});
