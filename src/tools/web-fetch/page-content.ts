/**
 * What a fetched body is, and its text (README.md "Content"): HTML is converted to Markdown, other
 * text types (Markdown, plain text, JSON, XML, CSV, JavaScript, …) are passed through as text, and
 * anything else is binary and refused.
 *
 * - The type comes from `content-type`; a missing or generic type (`application/octet-stream`) is
 *   sniffed: a NUL byte in the first 1 KiB (or a known binary signature) means binary, markup that
 *   opens like an HTML document means HTML, anything else is text.
 * - The charset comes from `content-type`, then (HTML) a `<meta charset>` in the first 2 KiB, then
 *   a byte-order mark; the default is UTF-8. An unknown charset label falls back to UTF-8.
 */
import { TextDecoder } from 'node:util';

export type PageKind = 'html' | 'text' | 'binary';

const TEXT_TYPES = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/graphql',
  'application/sql',
  'image/svg+xml',
]);

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Media type and charset of a `content-type` header (`text/html; charset=ISO-8859-1` → both). */
export function parseContentType(header: string): { mediaType: string; charset?: string } {
  const [type = '', ...params] = header.split(';');
  const mediaType = type.trim().toLowerCase();
  for (const p of params) {
    const [k, v] = p.split('=');
    if (k?.trim().toLowerCase() === 'charset' && v)
      return { mediaType, charset: v.trim().replace(/^"|"$/g, '').toLowerCase() };
  }
  return { mediaType };
}

const BINARY_SIGNATURES: readonly number[][] = [
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x50, 0x4b, 0x03, 0x04], // zip
  [0x1f, 0x8b], // gzip
];

function sniff(body: Buffer): PageKind {
  const head = body.subarray(0, 1024);
  if (BINARY_SIGNATURES.some((sig) => sig.every((b, i) => head[i] === b))) return 'binary';
  if (head.includes(0)) return 'binary';
  const start = head.toString('latin1').trimStart().slice(0, 64).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head'))
    return 'html';
  return 'text';
}

/** The kind of a body from its `content-type` and, where that says little, its first bytes. */
export function pageKind(contentType: string, body: Buffer): PageKind {
  const { mediaType } = parseContentType(contentType);
  if (HTML_TYPES.has(mediaType)) return 'html';
  if (mediaType.startsWith('text/') || TEXT_TYPES.has(mediaType) || /\+(json|xml)$/.test(mediaType))
    return 'text';
  if (mediaType === '' || mediaType === 'application/octet-stream' || mediaType === 'binary/octet-stream')
    return sniff(body);
  return 'binary';
}

function decoderFor(label: string | undefined): TextDecoder {
  if (label) {
    try {
      return new TextDecoder(label);
    } catch {
      // Unknown label: UTF-8 below.
    }
  }
  return new TextDecoder('utf-8');
}

/** The body as text, in the charset the response declares (see module doc). */
export function decodeBody(body: Buffer, contentType: string, kind: PageKind): string {
  let { charset } = parseContentType(contentType);
  if (!charset && kind === 'html') {
    const head = body.subarray(0, 2048).toString('latin1');
    const meta = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
    if (meta?.[1]) charset = meta[1].toLowerCase();
  }
  if (!charset) {
    if (body[0] === 0xfe && body[1] === 0xff) charset = 'utf-16be';
    else if (body[0] === 0xff && body[1] === 0xfe) charset = 'utf-16le';
  }
  return decoderFor(charset).decode(body);
}

/**
 * The text WebFetch works on: Markdown for HTML, the text itself otherwise. The HTML converter
 * (turndown and its DOM) is loaded with the first HTML page, not at start (docs/cli-print.md,
 * "Start-up").
 */
export async function pageText(
  body: Buffer,
  contentType: string,
  kind: Exclude<PageKind, 'binary'>,
  url: string,
): Promise<string> {
  const text = decodeBody(body, contentType, kind);
  if (kind !== 'html') return text;
  const { htmlToMarkdown } = await import('./html-to-markdown.js');
  return htmlToMarkdown(text, url);
}
