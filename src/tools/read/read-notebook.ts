/**
 * Rendering a Jupyter notebook for the model (the Claude Code tools reference: all cells with their outputs, code,
 * markdown and images; structured `{type:"notebook", file:{filePath, cells[]}}`).
 *
 * Each cell is a text block `<cell id="…" cell_type="…">source</cell>` (the id is what NotebookEdit
 * takes), followed by its outputs: text outputs (stream, text/plain results, errors with ANSI codes
 * removed) cut at {@link NOTEBOOK_OUTPUT_MAX_CHARS}, and png/jpeg outputs as image blocks.
 * Consecutive text is merged into one block. When the whole rendering is over the output cap, Read
 * renders the cells without their outputs (the sources are what NotebookEdit changes) and says so.
 */
import type { ToolResultContentBlock } from '../../core/index.js';
import { ToolInputError } from '../../core/index.js';
import {
  cellDisplayId,
  type Notebook,
  type NotebookOutput,
  notebookLanguage,
  parseNotebook,
  sourceText,
} from '../file-io/notebook.js';
import { IMAGE_MAX_RAW_BYTES, type ImageMediaType } from './read-image.js';

/** Largest notebook file Read parses (100 MB; the Claude Code tools reference item 5). */
export const NOTEBOOK_MAX_BYTES = 100 * 1024 * 1024;
/** Each text output is cut at this many characters. */
export const NOTEBOOK_OUTPUT_MAX_CHARS = 10_000;

export interface RenderedCellOutput {
  output_type: string;
  text?: string;
  image?: { image_data: string; media_type: ImageMediaType };
}

export interface RenderedCell {
  cellType: string;
  source: string;
  execution_count?: number | null;
  cell_id: string;
  language: string;
  outputs?: RenderedCellOutput[];
}

/**
 * Claude Code's notebook Read shape, plus `outputsOmitted` (present only when the cells' outputs
 * were left out to fit the output cap; `fullTokens` is the size with them).
 */
export interface ReadNotebookOutput {
  type: 'notebook';
  file: { filePath: string; cells: RenderedCell[]; outputsOmitted?: { fullTokens: number } };
}

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

function joinText(value: unknown): string {
  if (Array.isArray(value)) return value.join('');
  return typeof value === 'string' ? value : '';
}

function cut(text: string): string {
  if (text.length <= NOTEBOOK_OUTPUT_MAX_CHARS) return text;
  return `${text.slice(0, NOTEBOOK_OUTPUT_MAX_CHARS)}\n… [output truncated: ${text.length - NOTEBOOK_OUTPUT_MAX_CHARS} more characters]`;
}

function renderOutput(output: NotebookOutput): RenderedCellOutput {
  const rendered: RenderedCellOutput = { output_type: output.output_type };
  if (output.output_type === 'stream') {
    rendered.text = cut(joinText(output.text).replace(ANSI, ''));
  } else if (output.output_type === 'error') {
    const trace = (output.traceback ?? []).join('\n').replace(ANSI, '');
    rendered.text = cut(trace || `${output.ename ?? 'Error'}: ${output.evalue ?? ''}`);
  } else if (output.data) {
    const text = joinText(output.data['text/plain']);
    if (text) rendered.text = cut(text.replace(ANSI, ''));
    for (const mediaType of ['image/png', 'image/jpeg'] as const) {
      const data = joinText(output.data[mediaType]).replace(/\s+/g, '');
      if (data && data.length <= (IMAGE_MAX_RAW_BYTES * 4) / 3) {
        rendered.image = { image_data: data, media_type: mediaType };
        break;
      }
    }
  }
  return rendered;
}

/** The blocks the model sees for rendered cells, and how many text characters they hold. */
export function notebookContent(cells: readonly RenderedCell[]): {
  content: ToolResultContentBlock[];
  textChars: number;
} {
  const content: ToolResultContentBlock[] = [];
  let pending = '';
  let textChars = 0;
  const append = (text: string) => {
    pending += pending ? `\n${text}` : text;
  };
  const flush = () => {
    if (pending) content.push({ type: 'text', text: pending });
    textChars += pending.length;
    pending = '';
  };
  for (const cell of cells) {
    const attributes = [`id="${cell.cell_id}"`, `cell_type="${cell.cellType}"`];
    if (cell.cellType === 'code' && typeof cell.execution_count === 'number') {
      attributes.push(`execution_count="${cell.execution_count}"`);
    }
    append(`<cell ${attributes.join(' ')}>\n${cell.source}\n</cell>`);
    for (const output of cell.outputs ?? []) {
      if (output.text)
        append(`<output cell="${cell.cell_id}" type="${output.output_type}">\n${output.text}\n</output>`);
      if (output.image) {
        flush();
        content.push({
          type: 'image',
          source: { type: 'base64', media_type: output.image.media_type, data: output.image.image_data },
        });
      }
    }
  }
  if (cells.length === 0) pending = '(This notebook has no cells.)';
  flush();
  return { content, textChars };
}

/**
 * Parses and renders the notebook text of `filePath`.
 * @throws ToolInputError for invalid JSON or a notebook without cells.
 */
export function renderNotebook(
  filePath: string,
  text: string,
  options: { includeOutputs?: boolean } = {},
): { output: ReadNotebookOutput; textChars: number } {
  const includeOutputs = options.includeOutputs ?? true;
  const notebook: Notebook = parseNotebook(filePath, text);
  const language = notebookLanguage(notebook);
  const cells: RenderedCell[] = notebook.cells.map((cell, index) => {
    const rendered: RenderedCell = {
      cellType: cell.cell_type,
      source: sourceText(cell.source),
      cell_id: cellDisplayId(cell, index),
      language,
    };
    if (cell.cell_type === 'code') rendered.execution_count = cell.execution_count ?? null;
    if (includeOutputs && Array.isArray(cell.outputs) && cell.outputs.length > 0) {
      rendered.outputs = cell.outputs.map(renderOutput);
    }
    return rendered;
  });
  return {
    output: { type: 'notebook', file: { filePath, cells } },
    textChars: notebookContent(cells).textChars,
  };
}

/** The error for a notebook whose rendering is over the output cap. */
export function notebookTooLargeError(filePath: string, tokens: number, capTokens: number): ToolInputError {
  return new ToolInputError(
    `Notebook content (${tokens} tokens) exceeds maximum allowed tokens (${capTokens}). Read parts of it with ` +
      `Bash and jq, e.g. \`jq '.cells[0:10] | map({cell_type, id, source})' ${filePath}\`.`,
  );
}
