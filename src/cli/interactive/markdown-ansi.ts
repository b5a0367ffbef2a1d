/**
 * Markdown blocks → terminal text, from `marked`'s lexer tokens: headings bold (level 1 also
 * underlined), `**strong**` bold, `*em*` italic, `` `code` `` and fenced code in colour (fences
 * indented, no syntax highlighting), lists with `•` or numbers (nested lists indented, task items
 * as `[x]`/`[ ]`), block quotes behind `│ `, tables with padded columns, links as `text (url)`.
 * Without colour the same layout comes out as plain text. Lines are not re-wrapped: the terminal
 * wraps them.
 */
import { stripVTControlCharacters, styleText } from 'node:util';
import { Lexer, type Token, type Tokens } from 'marked';

type Format = Parameters<typeof styleText>[0];

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescape = (s: string): string => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m] ?? m);

export interface AnsiOptions {
  color: boolean;
  /** Columns (for rules). */
  width: number;
}

export function renderMarkdownAnsi(source: string, o: AnsiOptions): string {
  const paint = (format: Format, text: string): string =>
    o.color ? styleText(format, text, { validateStream: false }) : text;

  const inline = (tokens: readonly Token[] | undefined): string =>
    (tokens ?? [])
      .map((t) => {
        switch (t.type) {
          case 'strong':
            return paint('bold', inline((t as Tokens.Strong).tokens));
          case 'em':
            return paint('italic', inline((t as Tokens.Em).tokens));
          case 'del':
            return paint('strikethrough', inline((t as Tokens.Del).tokens));
          case 'codespan':
            return paint('cyan', unescape((t as Tokens.Codespan).text));
          case 'br':
            return '\n';
          case 'link': {
            const l = t as Tokens.Link;
            const label = inline(l.tokens);
            return stripVTControlCharacters(label) === l.href
              ? paint('underline', l.href)
              : `${label} (${paint('underline', l.href)})`;
          }
          case 'image':
            return `[image: ${(t as Tokens.Image).text || (t as Tokens.Image).href}]`;
          case 'text': {
            const x = t as Tokens.Text;
            return x.tokens ? inline(x.tokens) : unescape(x.text);
          }
          case 'escape':
            return (t as Tokens.Escape).text;
          default:
            return unescape('text' in t && typeof t.text === 'string' ? t.text : t.raw);
        }
      })
      .join('');

  const indent = (text: string, prefix: string, first = prefix): string =>
    text
      .split('\n')
      .map((line, i) => (i === 0 ? first : prefix) + line)
      .join('\n');

  const table = (t: Tokens.Table): string => {
    const rows = [
      t.header.map((c) => paint('bold', inline(c.tokens))),
      ...t.rows.map((r) => r.map((c) => inline(c.tokens))),
    ];
    const widths = t.header.map((_, i) =>
      Math.max(...rows.map((r) => stripVTControlCharacters(r[i] ?? '').length)),
    );
    const line = (r: string[]) =>
      r
        .map(
          (cell, i) =>
            cell + ' '.repeat(Math.max(0, (widths[i] ?? 0) - stripVTControlCharacters(cell).length)),
        )
        .join('  ');
    const [head, ...body] = rows;
    return [line(head ?? []), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
  };

  const blocks = (tokens: readonly Token[]): string[] => {
    const out: string[] = [];
    for (const t of tokens) {
      switch (t.type) {
        case 'space':
          break;
        case 'heading': {
          const h = t as Tokens.Heading;
          out.push(paint(h.depth === 1 ? ['bold', 'underline'] : 'bold', inline(h.tokens)));
          break;
        }
        case 'paragraph':
          out.push(inline((t as Tokens.Paragraph).tokens));
          break;
        case 'code':
          out.push(indent(paint('yellow', (t as Tokens.Code).text), '    '));
          break;
        case 'blockquote':
          out.push(indent(paint('dim', blocks((t as Tokens.Blockquote).tokens).join('\n\n')), '│ '));
          break;
        case 'hr':
          out.push(paint('dim', '─'.repeat(Math.min(40, o.width))));
          break;
        case 'list': {
          const l = t as Tokens.List;
          const start = typeof l.start === 'number' ? l.start : 1;
          const items = l.items.map((item, i) => {
            const bullet = l.ordered ? `${start + i}.` : '•';
            const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
            const body = blocks(item.tokens).join(l.loose ? '\n\n' : '\n');
            return indent(task + body, ' '.repeat(bullet.length + 3), `  ${bullet} `);
          });
          out.push(items.join(l.loose ? '\n\n' : '\n'));
          break;
        }
        case 'table':
          out.push(table(t as Tokens.Table));
          break;
        case 'text': {
          const x = t as Tokens.Text;
          out.push(x.tokens ? inline(x.tokens) : unescape(x.text));
          break;
        }
        default:
          out.push('text' in t && typeof t.text === 'string' ? t.text : t.raw);
      }
    }
    return out;
  };

  return blocks(new Lexer({ gfm: true }).lex(source)).join('\n\n');
}
