/**
 * `Read`: returns a file's contents to the model: numbered text lines, an image block,
 * a PDF (document block or per-page text), or a notebook cell by cell. Read-only and
 * concurrency-safe; never spilled (`maxResultSizeChars` = Infinity: a spilled Read would have to be
 * read back with Read).
 *
 * Sequence of `call`: resolve the path (cwd, `~`, symlinks) → stat (missing → not-found message
 * with hints; directory / non-regular → refused with a hint) → dispatch on the extension: image,
 * PDF, notebook, known binary (refused), else text (window of lines, streamed for large files) →
 * record what was read in `readFileState` (hash, mtime, partial or whole) → the structured output.
 * The result mapping renders the model's content from that output and the call's compat profile.
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import type { ToolResultContent, ToolUseContext } from '../../core/index.js';
import {
  buildTool,
  hashContent,
  invalidPathMessage,
  ToolExecutionError,
  ToolInputError,
} from '../../core/index.js';
import { assertPermittedPath, type CheckedFile, openCheckedFile } from '../file-io/checked-open.js';
import { extensionOf, hasBinaryExtension } from '../file-io/binary.js';
import { fileToolsCompat } from '../file-io/compat.js';
import { recordFileState } from '../file-io/freshness.js';
import { loadPrompt } from '../file-io/load-prompt.js';
import { fileNotFoundMessage } from '../file-io/not-found.js';
import { resolveCallPath } from '../file-io/resolve-path.js';
import { IMAGE_EXTENSIONS, imageBlock, prepareImage, type ReadImageOutput } from './read-image.js';
import {
  NOTEBOOK_MAX_BYTES,
  notebookContent,
  notebookTooLargeError,
  type ReadNotebookOutput,
  renderNotebook,
} from './read-notebook.js';
import { parsePageRange, pdfContent, type ReadPdfOutput, readPdf } from './read-pdf.js';
import { readTextWindow } from './read-text.js';
import { CHARS_PER_TOKEN, type ReadTextOutput, renderTextRead, textReadContent } from './text-result.js';
import { readDescriber } from './describe.js';

const ReadInput = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to read.'),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'The 1-based line number to start reading at. Give it only when the file is too large to read at once.',
    ),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('How many lines to read. Give it only when the file is too large to read at once.'),
  pages: z
    .string()
    .optional()
    .describe('PDF files only: a page number or range, e.g. "3" or "1-5". At most 20 pages per call.'),
});

export type ReadInput = z.infer<typeof ReadInput>;
export type ReadOutput = ReadTextOutput | ReadImageOutput | ReadPdfOutput | ReadNotebookOutput;

/**
 * The content the model sees for a read, from the output and the call's compat profile (line
 * separator, caps, reminders): numbered text, an image block, a PDF document or its pages, or a
 * notebook's cells.
 */
function readContent(output: ReadOutput, context: ToolUseContext): ToolResultContent {
  const compat = fileToolsCompat(context);
  switch (output.type) {
    case 'text':
      return textReadContent(output.file, compat);
    case 'image':
      return [imageBlock(output)];
    case 'pdf':
    case 'pdf-text':
      return pdfContent(output);
    case 'notebook': {
      const { content } = notebookContent(output.file.cells);
      const omitted = output.file.outputsOmitted;
      if (omitted) {
        const path = output.file.filePath;
        content.push({
          type: 'text',
          text:
            `(Cell outputs omitted: with them this notebook is ${omitted.fullTokens} tokens, over the ${compat.readMaxOutputTokens}-token cap. ` +
            `Read a cell's outputs with Bash and jq, e.g. \`jq '.cells[3].outputs' ${path}\`.)`,
        });
      }
      return content;
    }
  }
}

/** Opens the checked file, or explains why not (not found with hints, permission denied). */
async function openOrExplain(
  resolved: string,
  absolute: string,
  context: ToolUseContext,
): Promise<CheckedFile> {
  let opened: CheckedFile | 'missing';
  try {
    opened = await openCheckedFile(resolved, absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new ToolInputError(await fileNotFoundMessage(absolute, context.getAppState().cwd), 'file_path');
    }
    if (code === 'EACCES' || code === 'EPERM') {
      throw new ToolExecutionError(`Permission denied: ${absolute} cannot be read by this process.`);
    }
    throw error;
  }
  if (opened === 'missing') {
    throw new ToolInputError(await fileNotFoundMessage(absolute, context.getAppState().cwd), 'file_path');
  }
  return opened;
}

export const ReadTool = buildTool({
  name: 'Read',
  description: loadPrompt(import.meta.url, './read.prompt.md'),
  inputSchema: ReadInput,
  maxResultSizeChars: Number.POSITIVE_INFINITY,
  isReadOnly: readDescriber.isReadOnly,
  isConcurrencySafe: () => true,
  userFacingName: (_input?: ReadInput) => 'Read',
  toAutoClassifierInput: readDescriber.toAutoClassifierInput,

  async validateInput(input: ReadInput) {
    if (input.file_path.trim() === '') {
      return {
        ok: false,
        message: 'file_path is empty. Give the absolute path of the file to read.',
        field: 'file_path',
      };
    }
    const bad = invalidPathMessage('file_path', input.file_path);
    if (bad) return { ok: false, message: bad, field: 'file_path' };
    if (input.pages !== undefined) {
      if (extensionOf(input.file_path) !== 'pdf') {
        return {
          ok: false,
          message: 'pages applies to PDF files only. For other files use offset and limit.',
          field: 'pages',
        };
      }
      const range = parsePageRange(input.pages);
      if ('error' in range) return { ok: false, message: range.error, field: 'pages' };
    }
    return { ok: true };
  },

  async describeCall(input: ReadInput, context: ToolUseContext) {
    return readDescriber.describe(input, describeWorldOf(context));
  },

  async *call(input: ReadInput, context: ToolUseContext) {
    const p = resolveCallPath(input.file_path, context);
    assertPermittedPath(context, p.resolved, p.absolute);
    const file = await openOrExplain(p.resolved, p.absolute, context);
    try {
      return await readChecked(input, context, p, file);
    } finally {
      await file.close();
    }
  },

  mapToolResultToContent: (output: ReadOutput, meta: { context: ToolUseContext }): ToolResultContent =>
    readContent(output, meta.context),
});

/** Reads the verified file `file` (the call's path `p`) as the input asks. */
async function readChecked(
  input: ReadInput,
  context: ToolUseContext,
  p: { absolute: string; resolved: string },
  file: CheckedFile,
): Promise<{ data: ReadOutput }> {
  const compat = fileToolsCompat(context);
  const signal = context.abortController.signal;
  const info = file.stat;
  if (info.isDirectory()) {
    throw new ToolInputError(
      `${p.absolute} is a directory, not a file. List it with Bash (\`ls -la ${p.absolute}\`) or with Glob (path: "${p.absolute}").`,
      'file_path',
    );
  }
  if (!info.isFile()) {
    throw new ToolInputError(
      `${p.absolute} is not a regular file (a device, socket or FIFO); reading it could block. Use Bash if you really need it.`,
      'file_path',
    );
  }
  const mtimeMs = info.mtimeMs;
  const ext = extensionOf(p.resolved);
  const capChars = compat.readMaxOutputTokens * CHARS_PER_TOKEN;

  if (IMAGE_EXTENSIONS.has(ext)) {
    const bytes = await file.readAll({ signal });
    const output = await prepareImage(p.absolute, bytes);
    recordFileState(context, p.resolved, { contentHash: hashContent(bytes), mtimeMs, isPartial: false });
    return { data: output as ReadOutput };
  }

  if (ext === 'pdf') {
    const bytes = await file.readAll({ signal });
    const result = await readPdf(p.absolute, bytes, {
      ...(input.pages !== undefined ? { pages: input.pages } : {}),
      mode: compat.readPdf,
    });
    const textChars = pdfContent(result.output).reduce(
      (n, b) => n + (b.type === 'text' ? b.text.length : 0),
      0,
    );
    if (textChars > capChars) {
      throw new ToolInputError(
        `These PDF pages hold ${Math.ceil(textChars / CHARS_PER_TOKEN)} tokens of text, over the ${compat.readMaxOutputTokens}-token cap. Read fewer pages per call.`,
        'pages',
      );
    }
    recordFileState(context, p.resolved, {
      contentHash: hashContent(bytes),
      mtimeMs,
      isPartial: result.isPartial,
    });
    return { data: result.output as ReadOutput };
  }

  if (ext === 'ipynb') {
    if (info.size > NOTEBOOK_MAX_BYTES) {
      throw new ToolInputError(
        `${p.absolute} is ${info.size} bytes, over the ${NOTEBOOK_MAX_BYTES}-byte notebook limit. Read parts of it with Bash and jq, e.g. \`jq '.cells[0:10]' ${p.absolute}\`.`,
      );
    }
    const bytes = await file.readAll({ signal });
    const text = bytes.toString('utf8');
    let rendered = renderNotebook(p.absolute, text);
    if (rendered.textChars > capChars) {
      const fullTokens = Math.ceil(rendered.textChars / CHARS_PER_TOKEN);
      rendered = renderNotebook(p.absolute, text, { includeOutputs: false });
      if (rendered.textChars > capChars) {
        throw notebookTooLargeError(p.absolute, fullTokens, compat.readMaxOutputTokens);
      }
      rendered.output.file.outputsOmitted = { fullTokens };
    }
    recordFileState(context, p.resolved, {
      contentHash: hashContent(bytes),
      mtimeMs,
      isPartial: false,
      text,
    });
    return { data: rendered.output as ReadOutput };
  }

  if (hasBinaryExtension(p.resolved)) {
    throw new ToolInputError(
      `This tool cannot read binary files: ${p.absolute} is a .${ext} file. Inspect it with Bash instead (e.g. \`file\`, \`xxd | head\`, or a format-specific tool).`,
      'file_path',
    );
  }

  const explicitRange = input.offset !== undefined || input.limit !== undefined;
  const offset = Math.max(1, input.offset ?? 1);
  const limit = input.limit ?? compat.readLineCap;
  const window = await readTextWindow(file.ioPath, {
    displayPath: p.resolved,
    offset,
    limit,
    maxLineChars: compat.readMaxLineChars,
    sizeBytes: info.size,
    signal,
    readAllSync: () => file.readAllSync(),
  });
  const rendered = renderTextRead({ filePath: p.absolute, window, explicitRange, compat });
  recordFileState(context, p.resolved, {
    contentHash: window.contentHash,
    mtimeMs,
    isPartial: rendered.isPartial,
    ...(window.fullText !== undefined ? { text: window.fullText } : {}),
    ...(rendered.isPartial ? { offset, limit: rendered.output.file.numLines || limit } : {}),
  });
  return { data: rendered.output as ReadOutput };
}
