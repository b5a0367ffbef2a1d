/**
 * Reading PDFs (the Claude Code tools reference "Other file types"), with pdfjs-dist's legacy build (the one that runs
 * on Node 20):
 *
 * - no `pages`, at most {@link PDF_MAX_PAGES_WITHOUT_RANGE} pages: the whole file as a `document`
 *   block (structured `{type:"pdf", file:{filePath, base64, originalSize}}`), or as extracted text
 *   under compat `readPdf: 'text'` (for models without PDF input);
 * - no `pages`, more pages: an error asking for a page range;
 * - `pages` ("3", "1-5"; at most {@link PDF_MAX_PAGES_PER_CALL} per call): the text of each page.
 *   A page without extractable text (a scan) is rendered to a PNG (pdfjs's own canvas factory) and
 *   sent as an image, when a canvas is available; otherwise the page says it has no text.
 *   This differs from Claude Code, which renders every page of a range to an image (spec: `parts`);
 *   text is cheaper and works with any model, images are kept for pages where text says nothing.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolResultContentBlock } from '../../core/index.js';
import { ToolInputError } from '../../core/index.js';
import { imageBlock, prepareImage, type ReadImageOutput } from './read-image.js';
import { importEsm } from '../../core/import-esm.js';

export const PDF_MAX_PAGES_WITHOUT_RANGE = 10;
export const PDF_MAX_PAGES_PER_CALL = 20;
/** Largest PDF sent whole as a document block (the API's request limit is 32 MB). */
export const PDF_MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
/** Scale used to render a text-less page (1 = 72 dpi). */
const RENDER_SCALE = 1.5;

/** A parsed `pages` value: 1-based, inclusive. */
export interface PageRange {
  first: number;
  last: number;
}

/**
 * Parses `pages` ("3", "1-5", spaces allowed).
 * @returns the range, or an error message that names the accepted forms.
 */
export function parsePageRange(pages: string): PageRange | { error: string } {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pages);
  if (!m) return { error: `pages must be a page number or a range such as "3" or "1-5"; got "${pages}".` };
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : Number(m[2]);
  if (first < 1) return { error: 'pages are numbered from 1.' };
  if (last < first)
    return { error: `pages "${pages}" ends before it starts; write the range as "${last}-${first}".` };
  if (last - first + 1 > PDF_MAX_PAGES_PER_CALL) {
    return {
      error:
        `pages "${pages}" covers ${last - first + 1} pages; at most ${PDF_MAX_PAGES_PER_CALL} can be read per call. ` +
        `Read "${first}-${first + PDF_MAX_PAGES_PER_CALL - 1}" first.`,
    };
  }
  return { first, last };
}

export interface PdfPageText {
  page: number;
  text: string;
  /** True when the page had no text and was sent as an image instead. */
  rendered?: boolean;
  /** The image sent for a `rendered` page (Read's image shape). */
  image?: ReadImageOutput['file'];
}

export type ReadPdfOutput =
  | { type: 'pdf'; file: { filePath: string; base64: string; originalSize: number } }
  | {
      type: 'pdf-text';
      file: {
        filePath: string;
        originalSize: number;
        totalPages: number;
        firstPage: number;
        lastPage: number;
        pages: PdfPageText[];
      };
    };

export interface PdfReadResult {
  output: ReadPdfOutput;
  isPartial: boolean;
}

/** The blocks the model sees for a PDF read. */
export function pdfContent(output: ReadPdfOutput): ToolResultContentBlock[] {
  if (output.type === 'pdf') {
    return [
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: output.file.base64 },
      },
    ];
  }
  const { filePath, firstPage, lastPage, totalPages } = output.file;
  const content: ToolResultContentBlock[] = [
    {
      type: 'text',
      text: `PDF ${filePath}: pages ${firstPage}-${lastPage} of ${totalPages} (text extracted per page).`,
    },
  ];
  for (const page of output.file.pages) {
    if (page.text) content.push({ type: 'text', text: `--- Page ${page.page} ---\n${page.text}` });
    else if (page.rendered && page.image) {
      content.push({ type: 'text', text: `--- Page ${page.page} --- (no text layer; rendered as an image)` });
      content.push(imageBlock({ type: 'image', file: page.image }));
    } else {
      content.push({
        type: 'text',
        text: `--- Page ${page.page} --- (no extractable text; the page may be a scan)`,
      });
    }
  }
  if (lastPage < totalPages) {
    content.push({
      type: 'text',
      text: `(Pages ${lastPage + 1}-${totalPages} not shown. Use pages: "${lastPage + 1}-${Math.min(totalPages, lastPage + PDF_MAX_PAGES_PER_CALL)}" to continue.)`,
    });
  }
  return content;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= importEsm<PdfJs>('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

function standardFontDataUrl(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
    return `${pathToFileURL(path.join(path.dirname(pkg), 'standard_fonts')).href}/`;
  } catch {
    return undefined;
  }
}

type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

async function openPdf(filePath: string, bytes: Buffer): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  const fontUrl = standardFontDataUrl();
  try {
    // pdfjs takes ownership of (and detaches) the array it is given: hand it a copy.
    return await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      verbosity: 0,
      ...(fontUrl ? { standardFontDataUrl: fontUrl } : {}),
    }).promise;
  } catch (error) {
    const reason = (error as Error).message;
    const hint = /password/i.test(reason)
      ? 'It is password-protected; ask the user for an unprotected copy.'
      : 'It may be damaged or not a PDF; check it with Bash (`file <path>`).';
    throw new ToolInputError(`${filePath} could not be opened as a PDF (${reason}). ${hint}`);
  }
}

async function pageText(doc: PdfDocument, pageNumber: number): Promise<string> {
  const page = await doc.getPage(pageNumber);
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
  }
  page.cleanup();
  return text.trim();
}

/** Renders one page to PNG bytes, or undefined when no canvas is available here. */
async function renderPage(doc: PdfDocument, pageNumber: number): Promise<Buffer | undefined> {
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: RENDER_SCALE });
    const factory = (
      doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: unknown } } }
    ).canvasFactory;
    const { canvas } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({ canvas: canvas as never, viewport }).promise;
    const png = (canvas as { toBuffer(mime: string): Buffer }).toBuffer('image/png');
    page.cleanup();
    return png;
  } catch {
    return undefined;
  }
}

/**
 * Reads the PDF `bytes` of `filePath`.
 * @param pages - the model's `pages` value, if any (already validated by {@link parsePageRange}).
 * @throws ToolInputError for unreadable PDFs, too many pages without a range, or a range past the end.
 */
export async function readPdf(
  filePath: string,
  bytes: Buffer,
  options: { pages?: string; mode: 'document' | 'text' },
): Promise<PdfReadResult> {
  const doc = await openPdf(filePath, bytes);
  try {
    const totalPages = doc.numPages;
    let range: PageRange;
    if (options.pages === undefined) {
      if (totalPages > PDF_MAX_PAGES_WITHOUT_RANGE) {
        throw new ToolInputError(
          `This PDF has ${totalPages} pages, too many to read at once. Read it in parts with the pages ` +
            `parameter, e.g. pages: "1-${PDF_MAX_PAGES_WITHOUT_RANGE}" (at most ${PDF_MAX_PAGES_PER_CALL} pages per call).`,
        );
      }
      if (options.mode === 'document' && bytes.length <= PDF_MAX_DOCUMENT_BYTES) {
        const base64 = bytes.toString('base64');
        return {
          output: { type: 'pdf', file: { filePath, base64, originalSize: bytes.length } },
          isPartial: false,
        };
      }
      range = { first: 1, last: totalPages };
    } else {
      const parsed = parsePageRange(options.pages);
      if ('error' in parsed) throw new ToolInputError(parsed.error, 'pages');
      if (parsed.first > totalPages) {
        throw new ToolInputError(
          `pages "${options.pages}" starts after the last page: this PDF has ${totalPages} pages.`,
          'pages',
        );
      }
      range = { first: parsed.first, last: Math.min(parsed.last, totalPages) };
    }

    const pages: PdfPageText[] = [];
    for (let n = range.first; n <= range.last; n++) {
      const text = await pageText(doc, n);
      if (text) {
        pages.push({ page: n, text });
        continue;
      }
      const png = await renderPage(doc, n);
      if (png) {
        const image = await prepareImage(`${filePath} page ${n}`, png);
        pages.push({ page: n, text: '', rendered: true, image: image.file });
      } else {
        pages.push({ page: n, text: '' });
      }
    }
    const isPartial = range.first > 1 || range.last < totalPages;
    return {
      output: {
        type: 'pdf-text',
        file: {
          filePath,
          originalSize: bytes.length,
          totalPages,
          firstPage: range.first,
          lastPage: range.last,
          pages,
        },
      },
      isPartial,
    };
  } finally {
    await doc.destroy();
  }
}
