/**
 * HTML → Markdown for WebFetch (README.md "Content"), with turndown and its GFM plugin (tables,
 * strikethrough, task lists, highlighted code blocks as fenced blocks with their language).
 *
 * Noise that carries no page content is dropped before conversion: scripts, styles, templates,
 * embedded frames and objects, SVG and canvas drawings, forms and their controls, navigation
 * (`<nav>`, `role="navigation"`) and anything marked `aria-hidden="true"` or `hidden`. Links and
 * image sources are made absolute against the page URL, so the model can fetch them next; images
 * whose source is a `data:` URI keep only their alt text (the data would only cost context).
 *
 * One turndown service is built on first use and reused: building it costs more than converting
 * a small page. Conversion is synchronous, so the page URL the link rule reads cannot change
 * under it.
 */
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

/** What the rules read from a DOM node (turndown's parser is domino; no DOM types here). */
interface DomNode {
  nodeName: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

const NOISE_TAGS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'SVG',
  'CANVAS',
  'FORM',
  'BUTTON',
  'SELECT',
  'INPUT',
  'TEXTAREA',
  'NAV',
  'LINK',
  'META',
]);

let pageUrl = '';
let service: TurndownService | undefined;

function absolute(href: string): string {
  if (pageUrl === '' || href === '') return href;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return href;
  }
}

const escapeLinkText = (s: string) => s.replace(/([[\]])/g, '\\$1');

function build(): TurndownService {
  const t = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
  });
  t.use(gfm);
  t.remove((node) => {
    const n = node as unknown as DomNode;
    return (
      NOISE_TAGS.has(n.nodeName) ||
      n.getAttribute('role') === 'navigation' ||
      n.getAttribute('aria-hidden') === 'true' ||
      n.hasAttribute('hidden')
    );
  });
  t.addRule('absoluteLinks', {
    filter: (node) => {
      const n = node as unknown as DomNode;
      return n.nodeName === 'A' && (n.getAttribute('href') ?? '') !== '';
    },
    replacement: (content, node) => {
      const n = node as unknown as DomNode;
      const href = (n.getAttribute('href') ?? '').trim();
      if (href.startsWith('#') || /^javascript:/i.test(href)) return content;
      const text = content.trim();
      if (text === '') return '';
      const title = n.getAttribute('title');
      const url = absolute(href).replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'));
      return `[${text}](${url}${title ? ` "${title.replace(/"/g, '\\"')}"` : ''})`;
    },
  });
  t.addRule('images', {
    filter: 'img',
    replacement: (_content, node) => {
      const n = node as unknown as DomNode;
      const alt = (n.getAttribute('alt') ?? '').trim();
      const src = (n.getAttribute('src') ?? '').trim();
      if (src === '' || /^data:/i.test(src)) return alt ? escapeLinkText(alt) : '';
      return `![${escapeLinkText(alt)}](${absolute(src)})`;
    },
  });
  return t;
}

/** Converts an HTML document (or fragment) to Markdown; relative links resolve against `url`. */
export function htmlToMarkdown(html: string, url: string): string {
  service ??= build();
  pageUrl = url;
  try {
    return service.turndown(html).trim();
  } finally {
    pageUrl = '';
  }
}
