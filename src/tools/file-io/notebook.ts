/**
 * Jupyter notebook vocabulary shared by Read (rendering) and NotebookEdit (editing), after nbformat
 * 4: a notebook is `{cells[], metadata, nbformat, nbformat_minor}`; a cell is
 * `{cell_type, id?, metadata, source, outputs?, execution_count?}` where `source` is a string or a
 * list of lines. Cells are named by their `id` (nbformat ≥ 4.5) or by index as `cell-N`
 * (0-based; the Claude Code tools reference, changelog 2.0.43).
 */
import { ToolInputError } from '../../core/index.js';

export interface NotebookOutput {
  output_type: string;
  text?: string | string[];
  name?: string;
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  execution_count?: number | null;
}

export interface NotebookCell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [key: string]: unknown;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: {
    kernelspec?: { language?: string; name?: string };
    language_info?: { name?: string };
    [key: string]: unknown;
  };
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

/**
 * Parses notebook JSON.
 * @throws ToolInputError when it is not JSON or has no `cells` array.
 */
export function parseNotebook(filePath: string, text: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolInputError(
      `${filePath} is not valid notebook JSON (${(error as Error).message}). Inspect it with Bash (e.g. \`head -c 2000 <path>\`) or read it as text with Read on a copy renamed to .json.`,
    );
  }
  if (!value || typeof value !== 'object' || !Array.isArray((value as Notebook).cells)) {
    throw new ToolInputError(
      `${filePath} has no "cells" array, so it is not a Jupyter notebook (nbformat 4).`,
    );
  }
  return value as Notebook;
}

/** A cell's source as one string. */
export function sourceText(source: string | string[] | undefined): string {
  if (source === undefined) return '';
  return Array.isArray(source) ? source.join('') : source;
}

/** Splits text into Jupyter's list-of-lines form (each line keeps its `\n`, the last may not). */
export function sourceLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

/** The notebook's language: kernelspec language, else language_info name, else python. */
export function notebookLanguage(notebook: Notebook): string {
  return notebook.metadata?.kernelspec?.language ?? notebook.metadata?.language_info?.name ?? 'python';
}

/** The id a cell is shown and addressed by: its `id`, or `cell-N` by index. */
export function cellDisplayId(cell: NotebookCell, index: number): string {
  return typeof cell.id === 'string' && cell.id !== '' ? cell.id : `cell-${index}`;
}

/**
 * Index of the cell named `cellId` (an `id`, or `cell-N`); -1 when none. An exact `id` match wins
 * over the index form.
 */
export function findCellIndex(notebook: Notebook, cellId: string): number {
  const byId = notebook.cells.findIndex((c) => c.id === cellId);
  if (byId !== -1) return byId;
  const m = /^cell-(\d+)$/.exec(cellId);
  if (m) {
    const index = Number(m[1]);
    return index < notebook.cells.length ? index : -1;
  }
  return -1;
}
