import { describe, expect, it } from 'vitest';
import { parseJsonWithLines } from './json-locate.js';

describe('parseJsonWithLines', () => {
  const text = [
    '{',
    '  "permissions": {',
    '    "allow": [',
    '      "Bash(npm test:*)",',
    '      "Read(./src/**)"',
    '    ],',
    '    "deny": ["Bash(rm:*)"]',
    '  }',
    '}',
  ].join('\n');

  it('parses like JSON.parse', () => {
    const r = parseJsonWithLines(text);
    expect(r.ok && r.value).toEqual(JSON.parse(text));
  });

  it.each([
    [['permissions', 'allow', 0], 4, 'first allow rule'],
    [['permissions', 'allow', 1], 5, 'second allow rule'],
    [['permissions', 'deny', 0], 7, 'inline array element'],
    [['permissions'], 2, 'an object value'],
  ])('line of %j is %i (%s)', (p, line) => {
    const r = parseJsonWithLines(text);
    expect(r.ok && r.lineOf(p as (string | number)[])).toBe(line);
  });

  it.each([
    ['{"a": [1, 2,]}', 1, 'trailing comma'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 'missing comma reported where the next key starts'],
    ['{"a": "x', 1, 'unterminated string'],
    ["{'a': 1}", 1, 'single quotes are not JSON'],
    ['{"a": 1} x', 1, 'trailing text'],
    [`${'['.repeat(300)}${']'.repeat(300)}`, 1, 'nesting cap instead of a stack overflow'],
  ])('%j fails at line %i (%s)', (bad, line) => {
    const r = parseJsonWithLines(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.line).toBe(line);
  });

  it('decodes escapes', () => {
    const r = parseJsonWithLines('{"a": "x\\"y\\u0041\\n"}');
    expect(r.ok && r.value).toEqual({ a: 'x"yA\n' });
  });
});
