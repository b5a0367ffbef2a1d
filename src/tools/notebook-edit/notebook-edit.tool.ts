/**
 * `NotebookEdit` (the Claude Code tools reference): replaces, inserts or deletes one cell of a Jupyter notebook.
 *
 * Sequence (planned in `validateInput` and again in `call`): the path must be an `.ipynb` → the
 * notebook must exist, have been read in full, and be unchanged since → find the cell by `id` or
 * `cell-N` (required for replace and delete; insert without one goes first) → build the new cell:
 * replace keeps the source's form (list of lines or string), changes the type when asked, and
 * clears a code cell's outputs and execution count (they belonged to the old code); insert needs
 * `cell_type` and gets an nbformat-4.5 id when the notebook uses ids → splice the text so only that
 * cell's bytes change (splice.ts) → atomic write → record state → structured result.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import type { ToolUseContext } from '../../core/index.js';
import { buildTool, invalidPathMessage, ToolInputError } from '../../core/index.js';
import { assertPermittedPath } from '../file-io/checked-open.js';
import { extensionOf } from '../file-io/binary.js';
import { commitTextWrite } from '../file-io/commit-write.js';
import { fileToolsCompat } from '../file-io/compat.js';
import { checkReadBeforeWrite } from '../file-io/freshness.js';
import { loadPrompt } from '../file-io/load-prompt.js';
import { fileNotFoundMessage } from '../file-io/not-found.js';
import {
  cellDisplayId,
  findCellIndex,
  type Notebook,
  type NotebookCell,
  notebookLanguage,
  sourceLines,
  sourceText,
} from '../file-io/notebook.js';
import { resolveFilePath } from '../file-io/resolve-path.js';
import { loadTextFile, type TextFileSnapshot } from '../file-io/text-file.js';
import { validateByPlanning } from '../file-io/validate-plan.js';
import { insideWorkingDirectories } from '../file-io/working-area.js';
import { deleteCellText, insertCellText, openNotebookDocument, replaceCellText } from './splice.js';
import { notebookEditDescriber } from './describe.js';

const NotebookEditInput = z.strictObject({
  notebook_path: z.string().describe('The absolute path of the .ipynb notebook to change.'),
  cell_id: z
    .string()
    .optional()
    .describe(
      'The id of the cell to change (as shown by Read), or cell-N for the N-th cell from 0. With insert, the new cell goes after it; without it, at the start.',
    ),
  new_source: z.string().describe('The new source of the cell (ignored for delete).'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe('The cell type. Required for insert; for replace it defaults to the current type.'),
  edit_mode: z
    .enum(['replace', 'insert', 'delete'])
    .optional()
    .describe('replace (default) the cell source, insert a new cell, or delete the cell.'),
});

export type NotebookEditInput = z.infer<typeof NotebookEditInput>;

/** Structured result (the Claude Code tools reference). */
export interface NotebookEditOutput {
  new_source: string;
  old_source?: string;
  cell_id?: string;
  cell_type: 'code' | 'markdown';
  language: string;
  edit_mode: 'replace' | 'insert' | 'delete';
  notebook_path: string;
  original_file: string;
  updated_file: string;
  /** Present only when a replace changed the cell's type: the type it had. */
  previous_cell_type?: 'code' | 'markdown';
}

interface NotebookPlan {
  absolute: string;
  resolved: string;
  existing: TextFileSnapshot;
  updatedText: string;
  output: NotebookEditOutput;
}

function usesIds(notebook: Notebook): boolean {
  const minor = notebook.nbformat_minor ?? 0;
  return (notebook.nbformat ?? 4) > 4 || minor >= 5 || notebook.cells.some((c) => typeof c.id === 'string');
}

function newCellId(notebook: Notebook): string {
  const taken = new Set(notebook.cells.map((c) => c.id));
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!taken.has(id)) return id;
  }
}

/** A cell with `source` in the same form (list of lines or one string) as `like`. */
function withSource(like: string | string[] | undefined, text: string): string | string[] {
  return typeof like === 'string' ? text : sourceLines(text);
}

function cellNotFound(notebook: Notebook, cellId: string): ToolInputError {
  const ids = notebook.cells.slice(0, 12).map((c, i) => cellDisplayId(c, i));
  const more = notebook.cells.length > 12 ? ', …' : '';
  return new ToolInputError(
    `Cell with ID "${cellId}" not found in notebook. Its cells are: ${ids.join(', ') || '(none)'}${more}. ` +
      'Read the notebook to see the cell ids, or use cell-N for the N-th cell counting from 0.',
    'cell_id',
  );
}

/** Converts a cell to `type`, adding or removing the code-only fields in nbformat's key order. */
function retype(cell: NotebookCell, type: 'code' | 'markdown'): NotebookCell {
  const out: NotebookCell = { ...cell, cell_type: type };
  if (type === 'markdown') {
    delete out.outputs;
    delete out.execution_count;
    return out;
  }
  out.execution_count = null;
  out.outputs = [];
  const sorted = Object.keys(cell).every((k, i, keys) => i === 0 || (keys[i - 1] as string) <= k);
  return sorted
    ? (Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1))) as NotebookCell)
    : out;
}

/**
 * Plans the edit against the notebook as it is now. With `permitted` (in `call`) the path must
 * resolve to what the permission decision named, and the file is read through a verified descriptor.
 * In `validateInput` (not `permitted`) a file outside the working directories is not looked at: the
 * checks wait until after the permission decision, so an unapproved call learns nothing about it.
 */
async function planNotebookEdit(
  input: NotebookEditInput,
  context: ToolUseContext,
  permitted = false,
): Promise<NotebookPlan | undefined> {
  const mode = input.edit_mode ?? 'replace';
  const bad = invalidPathMessage('notebook_path', input.notebook_path);
  if (bad) throw new ToolInputError(bad, 'notebook_path');
  const p = resolveFilePath(input.notebook_path, context);
  if (extensionOf(p.resolved) !== 'ipynb') {
    throw new ToolInputError(
      'File must be a Jupyter notebook (.ipynb file). For other files use Edit.',
      'notebook_path',
    );
  }
  if (mode === 'insert' && !input.cell_type) {
    throw new ToolInputError(
      'cell_type is required when inserting a cell: give "code" or "markdown".',
      'cell_type',
    );
  }
  if (mode !== 'insert' && input.cell_id === undefined) {
    throw new ToolInputError(
      `cell_id is required to ${mode} a cell. Read the notebook to see the cell ids.`,
      'cell_id',
    );
  }
  if (permitted) assertPermittedPath(context, p.resolved, p.absolute);
  else if (!insideWorkingDirectories(context, p.resolved)) return undefined;
  const existing = await loadTextFile(p.resolved, p.absolute);
  if (!existing) {
    throw new ToolInputError(
      await fileNotFoundMessage(p.absolute, context.getAppState().cwd),
      'notebook_path',
    );
  }
  const check = checkReadBeforeWrite(context, existing, { requireFullRead: true });
  if (!check.ok) throw new ToolInputError(check.message, 'notebook_path');

  const doc = openNotebookDocument(p.absolute, existing.text);
  const notebook = doc.notebook;
  const index = input.cell_id === undefined ? -1 : findCellIndex(notebook, input.cell_id);
  if (input.cell_id !== undefined && index === -1) throw cellNotFound(notebook, input.cell_id);
  const language = notebookLanguage(notebook);
  const base = { new_source: input.new_source, language, edit_mode: mode, notebook_path: p.absolute };

  let updatedText: string;
  let output: Omit<NotebookEditOutput, 'original_file' | 'updated_file'>;
  if (mode === 'insert') {
    const type = input.cell_type as 'code' | 'markdown';
    const like = notebook.cells[Math.max(0, index)]?.source;
    const cell: NotebookCell =
      type === 'code'
        ? {
            cell_type: 'code',
            execution_count: null,
            metadata: {},
            outputs: [],
            source: withSource(like, input.new_source),
          }
        : { cell_type: 'markdown', metadata: {}, source: withSource(like, input.new_source) };
    let newId: string;
    if (usesIds(notebook)) {
      newId = newCellId(notebook);
      // nbformat key order: cell_type, execution_count, id, metadata, outputs, source.
      const entries = Object.entries({ ...cell, id: newId }).sort(([a], [b]) => (a < b ? -1 : 1));
      updatedText = insertCellText(doc, index, Object.fromEntries(entries) as NotebookCell);
    } else {
      newId = `cell-${index + 1}`;
      updatedText = insertCellText(doc, index, cell);
    }
    output = { ...base, cell_id: newId, cell_type: type };
  } else {
    const original = notebook.cells[index] as NotebookCell;
    const oldSource = sourceText(original.source);
    const cellId = cellDisplayId(original, index);
    const currentType = original.cell_type === 'code' ? 'code' : 'markdown';
    if (mode === 'delete') {
      updatedText = deleteCellText(doc, index);
      output = { ...base, old_source: oldSource, cell_id: cellId, cell_type: currentType };
    } else {
      const type = input.cell_type ?? currentType;
      let cell: NotebookCell = { ...original, source: withSource(original.source, input.new_source) };
      if (type !== original.cell_type) cell = retype(cell, type);
      else if (type === 'code') {
        // The old outputs came from the old code.
        if ('execution_count' in cell) cell.execution_count = null;
        if ('outputs' in cell) cell.outputs = [];
      }
      updatedText = replaceCellText(doc, index, cell);
      output = {
        ...base,
        old_source: oldSource,
        cell_id: cellId,
        cell_type: type,
        ...(type !== original.cell_type ? { previous_cell_type: currentType } : {}),
      };
    }
  }
  return {
    absolute: p.absolute,
    resolved: p.resolved,
    existing,
    updatedText,
    output: { ...output, original_file: existing.text, updated_file: updatedText },
  };
}

/** The text the model sees for a notebook edit (from the output and the input). */
function notebookEditContent(output: NotebookEditOutput, input: NotebookEditInput): string {
  switch (output.edit_mode) {
    case 'insert':
      return `Inserted ${output.cell_type} cell ${output.cell_id}${input.cell_id !== undefined ? ` after cell ${input.cell_id}` : ' at the start of the notebook'}.`;
    case 'delete':
      return `Deleted cell ${output.cell_id}.`;
    case 'replace':
      return `Updated cell ${output.cell_id}${output.previous_cell_type ? ` (now a ${output.cell_type} cell)` : ''}.`;
  }
}

export const NotebookEditTool = buildTool({
  name: 'NotebookEdit',
  // Used in few sessions: listed by name only behind tool search (docs/mcp-client.md).
  shouldDefer: true,
  description: loadPrompt(import.meta.url, './notebook-edit.prompt.md'),
  inputSchema: NotebookEditInput,
  maxResultSizeChars: 100_000,
  userFacingName: (_input?: NotebookEditInput) => 'Edit Notebook',
  toAutoClassifierInput: notebookEditDescriber.toAutoClassifierInput,

  validateInput: (input: NotebookEditInput, context: ToolUseContext) =>
    validateByPlanning(() => planNotebookEdit(input, context), 'notebook_path'),

  async describeCall(input: NotebookEditInput, context: ToolUseContext) {
    return notebookEditDescriber.describe(input, describeWorldOf(context));
  },

  async *call(input: NotebookEditInput, context: ToolUseContext) {
    const compat = fileToolsCompat(context);
    const plan = (await planNotebookEdit(input, context, true)) as NotebookPlan;
    await commitTextWrite({
      context,
      filePath: plan.resolved,
      displayPath: plan.absolute,
      text: plan.updatedText,
      encoding: plan.existing.encoding,
      mode: plan.existing.mode,
      createParents: compat.createParentDirs,
    });
    return { data: plan.output };
  },

  mapToolResultToContent: (output: NotebookEditOutput, meta: { input: NotebookEditInput }) =>
    notebookEditContent(output, meta.input),
});
