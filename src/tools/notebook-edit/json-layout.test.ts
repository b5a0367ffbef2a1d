import { describe, expect, it } from 'vitest';
import { detectJsonStyle, parseJsonSpans, serializeJson } from './json-layout.js';

const value = { b: [1, 'é', { c: null, d: [] }], a: {}, e: 'x"y\n' };

describe('detectJsonStyle + serializeJson', () => {
  it.each([
    [JSON.stringify(value, null, 1), 'one space (Jupyter)'],
    [JSON.stringify(value, null, 2), 'two spaces'],
    [JSON.stringify(value, null, '\t'), 'tabs'],
    [JSON.stringify(value), 'compact'],
    [JSON.stringify(value, null, 4).replace(/\n/g, '\r\n'), 'CRLF, four spaces'],
    [JSON.stringify(value, null, 1).replace('é', '\\u00e9'), 'Python ensure_ascii'],
  ])('re-serialises a document in its own style: %#, %s', (text, _why) => {
    const root = parseJsonSpans(text);
    expect(serializeJson(JSON.parse(text), 0, detectJsonStyle(text, root))).toBe(text);
  });

  it('reads a compact document written with spaces after separators', () => {
    const text = '{"a": 1, "b": [1, 2]}';
    const style = detectJsonStyle(text, parseJsonSpans(text));
    expect(style).toMatchObject({ indent: null, keySeparator: ': ', compactItemSeparator: ', ' });
  });
});

describe('parseJsonSpans', () => {
  it('gives the exact span of every value', () => {
    const text = '{ "k" : [ 1.50 , "s" ] , "n": null }';
    const root = parseJsonSpans(text);
    if (root.kind !== 'object') throw new Error('not an object');
    const [k, n] = root.members;
    expect(text.slice(k?.value.start, k?.value.end)).toBe('[ 1.50 , "s" ]');
    expect(text.slice(n?.value.start, n?.value.end)).toBe('null');
    if (k?.value.kind !== 'array') throw new Error('not an array');
    expect(k.value.items.map((i) => text.slice(i.start, i.end))).toEqual(['1.50', '"s"']);
  });

  it.each([
    ['{"a": 1,}', 'trailing comma'],
    ['{"a" 1}', 'missing colon'],
    ['[1, 2', 'unterminated array'],
    ['{"a": 1} x', 'trailing content'],
    ['"abc', 'unterminated string'],
  ])('rejects %j (%s)', (text, _why) => {
    expect(() => parseJsonSpans(text)).toThrow(SyntaxError);
  });
});

describe('parseJsonSpans: number literals of any length', () => {
  it.each([
    ['1'.repeat(63), 'just under the old 64-character cut'],
    ['1'.repeat(65), 'just over it'],
    [`0.${'3'.repeat(100)}`, 'a long fraction'],
  ])('%s… spans the whole literal (%s)', (num) => {
    const text = `{"a": ${num}, "b": true}`;
    const root = parseJsonSpans(text);
    expect(root.kind).toBe('object');
    if (root.kind !== 'object') return;
    const a = root.members[0]?.value;
    expect(a && text.slice(a.start, a.end)).toBe(num);
  });
});
