import { describe, expect, it } from 'vitest';
import { createMarkdownRenderer, MarkdownStream } from './markdown.js';

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('MarkdownStream', () => {
  const render = createMarkdownRenderer({ width: 60 });

  it('renders each block once it is complete, however the deltas are cut', () => {
    const source = 'Some **bold** and `code`.\n\n- item **one**\n- item two\n\nLast line';
    for (const size of [1, 3, 7, 100]) {
      const s = new MarkdownStream(render);
      const parts: string[] = [];
      for (let i = 0; i < source.length; i += size) parts.push(s.push(source.slice(i, i + size)));
      expect(plain(parts.join(''))).not.toContain('Last line');
      parts.push(s.end());
      const out = plain(parts.join(''));
      expect(out).toContain('Some bold and code.');
      expect(out).toContain('• item one');
      expect(out).not.toContain('**');
      expect(out).toContain('Last line');
    }
  });

  it('keeps a fenced code block whole across blank lines inside it', () => {
    const s = new MarkdownStream(render);
    expect(s.push('```js\nconst a = 1;\n\nconst b = 2;\n')).toBe('');
    expect(s.buffered).toContain('const b');
    const out = plain(s.push('```\n\nafter\n\n'));
    expect(out).toContain('const a = 1;');
    expect(out).toContain('const b = 2;');
    expect(out).toContain('after');
    expect(s.end()).toBe('');
  });

  it('returns nothing for whitespace only', () => {
    const s = new MarkdownStream(render);
    expect(s.push('\n\n\n')).toBe('');
    expect(s.end()).toBe('');
  });
});
