import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageBlock, ToolResultContentBlock, ToolUseContext } from '../../core/index.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { IMAGE_MAX_DIMENSION_PX, IMAGE_TARGET_BYTES, type ReadImageOutput } from './read-image.js';
import type { ReadNotebookOutput } from './read-notebook.js';
import { parsePageRange, type ReadPdfOutput } from './read-pdf.js';
import { ReadTool } from './read.tool.js';

let dir: string;
let cleanup: () => Promise<void>;
let context: ToolUseContext;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  context = makeToolContext({ cwd: dir });
});
afterEach(async () => cleanup());

/** Random-noise RGB image (noise does not compress, so the file is large). */
async function noiseImage(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const image = sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 95 }).toBuffer();
}

describe('Read: images', () => {
  it('returns a small PNG untouched as an image block', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const file = path.join(dir, 'small.png');
    await writeFile(file, png);
    const run = await runToolOk<ReadImageOutput>(ReadTool, { file_path: file }, context);
    expect(run.data).toEqual({
      type: 'image',
      file: {
        base64: png.toString('base64'),
        type: 'image/png',
        originalSize: png.length,
        dimensions: { originalWidth: 40, originalHeight: 30, displayWidth: 40, displayHeight: 30 },
      },
    });
    expect(run.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
    ]);
    expect(context.readFileState.get(file)?.isPartial).toBe(false);
  });

  it('downscales an image larger than 2000 px to fit, keeping its format when that is small enough', async () => {
    const file = path.join(dir, 'wide.png');
    await writeFile(
      file,
      await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#0a0' } })
        .png()
        .toBuffer(),
    );
    const run = await runToolOk<ReadImageOutput>(ReadTool, { file_path: file }, context);
    expect(run.data.file.type).toBe('image/png');
    expect(run.data.file.dimensions).toEqual({
      originalWidth: 3000,
      originalHeight: 1500,
      displayWidth: IMAGE_MAX_DIMENSION_PX,
      displayHeight: 1000,
    });
    const meta = await sharp(Buffer.from(run.data.file.base64, 'base64')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 2000, 1000]);
  });

  it('re-encodes an image over the byte limit as a smaller JPEG', async () => {
    const file = path.join(dir, 'noise.png');
    const png = await noiseImage(1400, 1000, 'png');
    expect(png.length).toBeGreaterThan(3_750_000);
    await writeFile(file, png);
    const run = await runToolOk<ReadImageOutput>(ReadTool, { file_path: file }, context);
    const bytes = Buffer.from(run.data.file.base64, 'base64');
    expect(bytes.length).toBeLessThanOrEqual(IMAGE_TARGET_BYTES);
    expect(run.data.file.type).toBe('image/jpeg');
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([
      run.data.file.dimensions?.displayWidth,
      run.data.file.dimensions?.displayHeight,
    ]);
  });

  it('sends the media type of the content, not of the file name', async () => {
    const file = path.join(dir, 'actually-jpeg.png');
    await writeFile(
      file,
      await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer(),
    );
    const run = await runToolOk<ReadImageOutput>(ReadTool, { file_path: file }, context);
    expect((run.content as ImageBlock[])[0]?.source.media_type).toBe('image/jpeg');
  });

  it('refuses an image file that does not decode, with a next step', async () => {
    const file = path.join(dir, 'broken.webp');
    await writeFile(file, 'not an image at all');
    expect(await runToolError(ReadTool, { file_path: file }, context)).toMatch(
      /could not be decoded as an image.*file <path>/,
    );
  });
});

async function makePdf(pages: (string | null)[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([300, 200]);
    if (text) page.drawText(text, { x: 20, y: 150, size: 12, font });
    else page.drawRectangle({ x: 50, y: 50, width: 80, height: 40 });
  }
  return Buffer.from(await doc.save());
}

describe('Read: PDFs', () => {
  it('returns a short PDF whole as a document block', async () => {
    const pdf = await makePdf(['one', 'two']);
    const file = path.join(dir, 'short.pdf');
    await writeFile(file, pdf);
    const run = await runToolOk<ReadPdfOutput>(ReadTool, { file_path: file }, context);
    expect(run.data).toEqual({
      type: 'pdf',
      file: { filePath: file, base64: pdf.toString('base64'), originalSize: pdf.length },
    });
    expect(run.content).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') },
      },
    ]);
  });

  it('extracts the text of a short PDF under compat readPdf: text', async () => {
    const file = path.join(dir, 'short.pdf');
    await writeFile(file, await makePdf(['first page text', 'second page text']));
    const run = await runToolOk<ReadPdfOutput>(
      ReadTool,
      { file_path: file },
      makeToolContext({ cwd: dir, compat: { readPdf: 'text' } }),
    );
    const text = (run.content as ToolResultContentBlock[])
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('\n');
    expect(text).toContain('--- Page 1 ---\nfirst page text');
    expect(text).toContain('--- Page 2 ---\nsecond page text');
  });

  it('asks for a page range when a PDF has more than 10 pages', async () => {
    const file = path.join(dir, 'long.pdf');
    await writeFile(file, await makePdf(Array.from({ length: 12 }, (_, i) => `page ${i + 1}`)));
    expect(await runToolError(ReadTool, { file_path: file }, context)).toMatch(/has 12 pages.*pages: "1-10"/);
  });

  it('reads a page range as text per page, renders a text-less page, and says how to continue', async () => {
    const file = path.join(dir, 'long.pdf');
    await writeFile(
      file,
      await makePdf([...Array.from({ length: 11 }, (_, i) => `page ${i + 1} words`), null]),
    );
    const run = await runToolOk<ReadPdfOutput>(ReadTool, { file_path: file, pages: '2-3' }, context);
    expect(run.data).toMatchObject({
      type: 'pdf-text',
      file: {
        totalPages: 12,
        firstPage: 2,
        lastPage: 3,
        pages: [
          { page: 2, text: 'page 2 words' },
          { page: 3, text: 'page 3 words' },
        ],
      },
    });
    const texts = (run.content as ToolResultContentBlock[])
      .filter((b) => b.type === 'text')
      .map((b) => (b as { text: string }).text);
    expect(texts.at(-1)).toBe('(Pages 4-12 not shown. Use pages: "4-12" to continue.)');
    expect(context.readFileState.get(file)?.isPartial).toBe(true);

    const blank = await runToolOk<ReadPdfOutput>(ReadTool, { file_path: file, pages: '12' }, context);
    const blocks = blank.content as ToolResultContentBlock[];
    const image = blocks.find((b) => b.type === 'image');
    if (image) {
      expect(blocks.some((b) => b.type === 'text' && b.text.includes('rendered as an image'))).toBe(true);
      expect(
        (await sharp(Buffer.from((image as ImageBlock).source.data, 'base64')).metadata()).width,
      ).toBeGreaterThan(0);
    } else {
      expect(blocks.some((b) => b.type === 'text' && b.text.includes('no extractable text'))).toBe(true);
    }
  });

  it('refuses a range past the end, naming the page count', async () => {
    const file = path.join(dir, 'two.pdf');
    await writeFile(file, await makePdf(['a', 'b']));
    expect(await runToolError(ReadTool, { file_path: file, pages: '5' }, context)).toBe(
      'pages "5" starts after the last page: this PDF has 2 pages.',
    );
  });

  it.each([
    ['3', { first: 3, last: 3 }, 'one page'],
    [' 1 - 5 ', { first: 1, last: 5 }, 'spaces allowed'],
    ['1-20', { first: 1, last: 20 }, 'the maximum span'],
    ['1-21', /covers 21 pages; at most 20 can be read per call\. Read "1-20" first/, 'over the maximum'],
    ['5-2', /ends before it starts/, 'reversed'],
    ['0', /numbered from 1/, 'zero'],
    ['a-b', /page number or a range/, 'not numbers'],
  ])('parsePageRange(%j)', (pages, expected, _why) => {
    const result = parsePageRange(pages);
    if (expected instanceof RegExp) expect('error' in result && result.error).toMatch(expected);
    else expect(result).toEqual(expected);
  });

  it('explains a file that is not a PDF', async () => {
    const file = path.join(dir, 'fake.pdf');
    await writeFile(file, 'hello');
    expect(await runToolError(ReadTool, { file_path: file }, context)).toMatch(
      /could not be opened as a PDF/,
    );
  });
});

describe('Read: notebooks', () => {
  const PIXEL =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const notebook = {
    cells: [
      { cell_type: 'markdown', id: 'md1', metadata: {}, source: ['# Title\n', 'text'] },
      {
        cell_type: 'code',
        id: 'code1',
        execution_count: 2,
        metadata: {},
        source: 'print(1)',
        outputs: [
          { output_type: 'stream', name: 'stdout', text: ['1\n'] },
          {
            output_type: 'display_data',
            data: { 'image/png': PIXEL, 'text/plain': ['<Figure>'] },
            metadata: {},
          },
          {
            output_type: 'error',
            ename: 'ValueError',
            evalue: 'bad',
            traceback: ['\u001b[31mValueError\u001b[0m: bad'],
          },
        ],
      },
      { cell_type: 'code', metadata: {}, source: [], outputs: [], execution_count: null },
    ],
    metadata: { kernelspec: { language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  };

  it('renders cells with ids, outputs (ANSI stripped) and image outputs, and records a full read', async () => {
    const file = path.join(dir, 'nb.ipynb');
    await writeFile(file, JSON.stringify(notebook, null, 1));
    const run = await runToolOk<ReadNotebookOutput>(ReadTool, { file_path: file }, context);
    expect(run.content).toEqual([
      {
        type: 'text',
        text:
          '<cell id="md1" cell_type="markdown">\n# Title\ntext\n</cell>\n' +
          '<cell id="code1" cell_type="code" execution_count="2">\nprint(1)\n</cell>\n' +
          '<output cell="code1" type="stream">\n1\n\n</output>\n' +
          '<output cell="code1" type="display_data">\n<Figure>\n</output>',
      },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
      {
        type: 'text',
        text: '<output cell="code1" type="error">\nValueError: bad\n</output>\n<cell id="cell-2" cell_type="code">\n\n</cell>',
      },
    ]);
    expect(run.data.file.cells.map((c) => [c.cell_id, c.cellType, c.language])).toEqual([
      ['md1', 'markdown', 'python'],
      ['code1', 'code', 'python'],
      ['cell-2', 'code', 'python'],
    ]);
    expect(context.readFileState.get(file)?.isPartial).toBe(false);
  });

  it('explains invalid notebook JSON', async () => {
    const file = path.join(dir, 'bad.ipynb');
    await writeFile(file, '{"cells": [');
    expect(await runToolError(ReadTool, { file_path: file }, context)).toMatch(/is not valid notebook JSON/);
  });

  it('drops the outputs of a notebook that is over the cap only because of them, and says so', async () => {
    const file = path.join(dir, 'noisy.ipynb');
    const cells = Array.from({ length: 5 }, (_, i) => ({
      cell_type: 'code',
      id: `c${i}`,
      metadata: {},
      source: `print(${i})`,
      execution_count: i,
      outputs: [{ output_type: 'stream', name: 'stdout', text: 'y'.repeat(2000) }],
    }));
    await writeFile(file, JSON.stringify({ ...notebook, cells }));
    const ctx = makeToolContext({ cwd: dir, compat: { readMaxOutputTokens: 1000 } });
    const run = await runToolOk<ReadNotebookOutput>(ReadTool, { file_path: file }, ctx);
    const text = (run.content as ToolResultContentBlock[])
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('\n');
    expect(text).toContain('<cell id="c4" cell_type="code" execution_count="4">\nprint(4)\n</cell>');
    expect(text).not.toContain('yyyy');
    expect(text).toMatch(
      /Cell outputs omitted: with them this notebook is \d+ tokens, over the 1000-token cap/,
    );
    expect(ctx.readFileState.get(file)?.isPartial).toBe(false);
  });

  it('refuses a notebook over the output cap and shows how to read parts with jq', async () => {
    const file = path.join(dir, 'large.ipynb');
    const cells = Array.from({ length: 50 }, (_, i) => ({
      cell_type: 'code',
      metadata: {},
      source: 'x'.repeat(400) + i,
      outputs: [],
    }));
    await writeFile(file, JSON.stringify({ ...notebook, cells }));
    const message = await runToolError(
      ReadTool,
      { file_path: file },
      makeToolContext({ cwd: dir, compat: { readMaxOutputTokens: 1000 } }),
    );
    expect(message).toMatch(
      /^Notebook content \(\d+ tokens\) exceeds maximum allowed tokens \(1000\)\. .*jq '\.cells\[0:10\]/,
    );
  });
});
