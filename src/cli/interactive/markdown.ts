/**
 * Markdown for the terminal, rendered while it streams in.
 *
 * The model's text arrives in small deltas; a markdown block (a paragraph, a list, a fenced code
 * block, a table) can only be rendered once it is complete. `MarkdownStream` keeps the text of the
 * unfinished block and hands back the rendered ANSI of every block that closed, each followed by a blank line: a block closes at a
 * blank line outside a code fence. `end()` renders what is left (the end of a text block).
 *
 * Parsing is `marked`'s lexer; the ANSI rendering is `markdown-ansi.ts`. A block that fails to
 * render is printed as its source text.
 */
import { renderMarkdownAnsi } from './markdown-ansi.js';

export interface MarkdownOptions {
  /** Terminal width in columns (default 80). */
  width?: number;
  /** ANSI styles (default true). */
  color?: boolean;
}

export function createMarkdownRenderer(options: MarkdownOptions = {}): (source: string) => string {
  const width = Math.max(20, Math.min(options.width ?? 80, 200));
  const color = options.color ?? true;
  return (source) => {
    try {
      const out = renderMarkdownAnsi(source, { width, color });
      return `${out.replace(/\n+$/, '')}\n\n`;
    } catch {
      return `${source.replace(/\n+$/, '')}\n\n`;
    }
  };
}

/** True when `text` leaves a ``` or ~~~ fence open. */
function insideFence(text: string): boolean {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (!m) continue;
    const fence = m[1] as string;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length) open = undefined;
  }
  return open !== undefined;
}

export class MarkdownStream {
  private pending = '';

  constructor(private readonly render: (source: string) => string) {}

  /** Adds a delta; returns the rendered blocks it completed ('' when none). */
  push(delta: string): string {
    this.pending += delta;
    let cut = -1;
    let from = 0;
    for (;;) {
      const i = this.pending.indexOf('\n\n', from);
      if (i < 0) break;
      if (!insideFence(this.pending.slice(0, i))) cut = i;
      from = i + 1;
    }
    if (cut < 0) return '';
    const done = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut + 2).replace(/^\n+/, '');
    return done.trim() === '' ? '' : this.render(done);
  }

  /** Renders what is left; the stream is empty afterwards. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() === '' ? '' : this.render(rest);
  }

  /** Text received and not yet rendered. */
  get buffered(): string {
    return this.pending;
  }
}
