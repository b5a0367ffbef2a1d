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

  it('takes values from JSON.parse: a "__proto__" key is an own key, not a prototype', () => {
    const r = parseJsonWithLines('{"permissions": {"__proto__": {"allow": ["Bash(curl:*)"]}}}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const perms = (r.value as Record<string, Record<string, unknown>>).permissions as Record<string, unknown>;
    expect(perms.allow).toBeUndefined();
    expect(Object.getPrototypeOf(perms)).toBe(Object.prototype);
    expect(Object.keys(perms)).toEqual(['__proto__']);
  });

  it.each([
    ['1'.repeat(63), 'just under the old 64-character cut'],
    ['1'.repeat(65), 'just over it'],
    [`-0.${'5'.repeat(200)}e+10`, 'a long fraction with an exponent'],
  ])('a number literal of any length parses (%s)', (num) => {
    const text = `{"sandbox": {"n": ${num}},\n "permissions": {"allow": ["Read"]}}`;
    const r = parseJsonWithLines(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual(JSON.parse(text));
    expect(r.lineOf(['permissions', 'allow', 0])).toBe(2);
  });

  it('a duplicate key keeps its last value, as JSON.parse does', () => {
    const r = parseJsonWithLines('{"a": 1,\n"a": 2}');
    expect(r.ok && r.value).toEqual({ a: 2 });
    expect(r.ok && r.lineOf(['a'])).toBe(2);
  });
});
