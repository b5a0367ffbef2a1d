import { describe, expect, it } from 'vitest';
import { renderMarkdownAnsi } from './markdown-ansi.js';

const plain = (s: string) => renderMarkdownAnsi(s, { color: false, width: 60 });

describe('renderMarkdownAnsi', () => {
  it.each([
    { why: 'emphasis markers go, the words stay', md: 'a **b** *c* ~~d~~', want: 'a b c d' },
    { why: 'code spans keep their text, entities decoded', md: 'run `a<b> && c`', want: 'run a<b> && c' },
    {
      why: 'a link shows its target',
      md: '[docs](https://example.com/d)',
      want: 'docs (https://example.com/d)',
    },
    { why: 'a bare link is shown once', md: '<https://example.com>', want: 'https://example.com' },
    { why: 'bullets', md: '- one\n- **two**', want: '  • one\n  • two' },
    { why: 'numbered lists keep their start', md: '3. c\n4. d', want: '  3. c\n  4. d' },
    { why: 'nested lists indent', md: '- a\n  - b', want: '  • a\n      • b' },
    { why: 'task items', md: '- [x] done\n- [ ] open', want: '  • [x] done\n  • [ ] open' },
    { why: 'fenced code is indented, not parsed', md: '```\n**x**\n```', want: '    **x**' },
    { why: 'quotes get a bar', md: '> said', want: '│ said' },
    { why: 'headings lose their hashes', md: '## Title', want: 'Title' },
    {
      why: 'tables pad their columns',
      md: '| a | bb |\n|---|---|\n| 111 | 2 |',
      want: 'a    bb\n───  ──\n111  2 ',
    },
  ])('$why', ({ md, want }) => {
    expect(plain(md)).toBe(want);
  });

  it('styles with ANSI when colour is on', () => {
    const out = renderMarkdownAnsi('**b** `c`', { color: true, width: 60 });
    expect(out).toContain('\u001b[1mb\u001b[22m');
    expect(out).toContain('\u001b[36mc\u001b[39m');
  });
});
