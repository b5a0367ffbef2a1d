import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../core/index.js';
import { makeTempDir, makeToolContext, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { ReadTool } from '../read/read.tool.js';
import { NotebookEditTool, type NotebookEditOutput } from './notebook-edit.tool.js';

/**
 * A notebook as Jupyter writes it (1-space indent, sorted keys, trailing newline), with odd
 * metadata that a re-serialisation would change: `1.0` and `1.50` floats, `-0.0`, `2e10`, an
 * inline object, an escaped `\u00e9`, unsorted metadata keys, and an inline array in a cell.
 */
const ODD_NOTEBOOK = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "intro",
   "metadata": {},
   "source": [
    "# Title\\n",
    "Some “text” ü"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "calc",
   "metadata": {
    "scrolled": true,
    "tags": ["a", "b"]
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "42\\n"
     ]
    }
   ],
   "source": [
    "x = 6 * 7\\n",
    "print(x)"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "id": "last",
   "metadata": {},
   "outputs": [],
   "source": []
  }
 ],
 "metadata": {
  "zeta": 1.0,
  "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
  "custom": {"weird": [1.50, 2e10, -0.0], "emptyObj": {}, "u": "\\u00e9"}
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`;

let dir: string;
let cleanup: () => Promise<void>;
let context: ToolUseContext;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  context = makeToolContext({ cwd: dir });
});
afterEach(async () => cleanup());

async function readyNotebook(content = ODD_NOTEBOOK, name = 'nb.ipynb'): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  await runToolOk(ReadTool, { file_path: file }, context);
  return file;
}

const notebookEdit = (input: Record<string, unknown>) =>
  runToolOk<NotebookEditOutput>(NotebookEditTool, input, context);

/** Replaces exactly one occurrence of `from` in `text` (fails the test when it is not unique). */
function replaceOnce(text: string, from: string, to: string): string {
  expect(text.split(from).length).toBe(2);
  return text.replace(from, () => to);
}

const CALC_OUTPUTS = `"outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "42\\n"
     ]
    }
   ]`;
const CALC_SOURCE = `"source": [
    "x = 6 * 7\\n",
    "print(x)"
   ]`;

describe('NotebookEdit: byte-for-byte outside the edited cell', () => {
  it('replace: changes only the source, outputs and execution count of that cell', async () => {
    const file = await readyNotebook();
    const run = await notebookEdit({ notebook_path: file, cell_id: 'calc', new_source: 'y = 1\nprint(y)\n' });
    let expected = replaceOnce(ODD_NOTEBOOK, '"execution_count": 3', '"execution_count": null');
    expected = replaceOnce(expected, CALC_OUTPUTS, '"outputs": []');
    expected = replaceOnce(expected, CALC_SOURCE, '"source": [\n    "y = 1\\n",\n    "print(y)\\n"\n   ]');
    expect(await readFile(file, 'utf8')).toBe(expected);
    expect(run.content).toBe('Updated cell calc.');
    expect(run.data).toMatchObject({
      new_source: 'y = 1\nprint(y)\n',
      old_source: 'x = 6 * 7\nprint(x)',
      cell_id: 'calc',
      cell_type: 'code',
      language: 'python',
      edit_mode: 'replace',
      notebook_path: file,
      original_file: ODD_NOTEBOOK,
      updated_file: expected,
    });
  });

  it('replace with a type change re-writes that cell only, reusing its untouched members verbatim', async () => {
    const file = await readyNotebook();
    await notebookEdit({
      notebook_path: file,
      cell_id: 'calc',
      new_source: 'Now *prose*',
      cell_type: 'markdown',
    });
    const expectedCell = `{
   "cell_type": "markdown",
   "id": "calc",
   "metadata": {
    "scrolled": true,
    "tags": ["a", "b"]
   },
   "source": [
    "Now *prose*"
   ]
  }`;
    const start = ODD_NOTEBOOK.indexOf('{\n   "cell_type": "code",\n   "execution_count": 3');
    const end = ODD_NOTEBOOK.indexOf('\n  },\n  {\n   "cell_type": "code",\n   "execution_count": null') + 4;
    const expected = ODD_NOTEBOOK.slice(0, start) + expectedCell + ODD_NOTEBOOK.slice(end);
    expect(await readFile(file, 'utf8')).toBe(expected);
  });

  it('insert after a cell: the new cell in the notebook’s style, with an nbformat 4.5 id', async () => {
    const file = await readyNotebook();
    const run = await notebookEdit({
      notebook_path: file,
      cell_id: 'intro',
      new_source: 'import os\n',
      cell_type: 'code',
      edit_mode: 'insert',
    });
    const id = run.data.cell_id as string;
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const anchor = '    "Some “text” ü"\n   ]\n  }';
    const inserted = `,\n  {\n   "cell_type": "code",\n   "execution_count": null,\n   "id": "${id}",\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "import os\\n"\n   ]\n  }`;
    expect(await readFile(file, 'utf8')).toBe(replaceOnce(ODD_NOTEBOOK, anchor, anchor + inserted));
    expect(run.content).toBe(`Inserted code cell ${id} after cell intro.`);
  });

  it('insert without cell_id goes first; delete removes a cell and one separator', async () => {
    const file = await readyNotebook();
    const run = await notebookEdit({
      notebook_path: file,
      new_source: 'Top',
      cell_type: 'markdown',
      edit_mode: 'insert',
    });
    const id = run.data.cell_id as string;
    const afterInsert = await readFile(file, 'utf8');
    expect(afterInsert).toBe(
      replaceOnce(
        ODD_NOTEBOOK,
        ' "cells": [\n  {',
        ` "cells": [\n  {\n   "cell_type": "markdown",\n   "id": "${id}",\n   "metadata": {},\n   "source": [\n    "Top"\n   ]\n  },\n  {`,
      ),
    );
    await notebookEdit({ notebook_path: file, cell_id: id, new_source: '', edit_mode: 'delete' });
    expect(await readFile(file, 'utf8')).toBe(ODD_NOTEBOOK);
  });

  it('delete of the last cell takes the separator before it', async () => {
    const file = await readyNotebook();
    const run = await notebookEdit({
      notebook_path: file,
      cell_id: 'cell-2',
      new_source: '',
      edit_mode: 'delete',
    });
    const lastCell = `,\n  {\n   "cell_type": "code",\n   "execution_count": null,\n   "id": "last",\n   "metadata": {},\n   "outputs": [],\n   "source": []\n  }`;
    expect(await readFile(file, 'utf8')).toBe(replaceOnce(ODD_NOTEBOOK, lastCell, ''));
    expect(run.content).toBe('Deleted cell last.');
  });

  it('keeps a compact, ids-less, 2-space-key-separated notebook compact, addressing cells as cell-N', async () => {
    const compact =
      '{"cells":[{"cell_type":"code","execution_count":1,"metadata":{},"outputs":[],"source":"a = 1"}],"metadata":{},"nbformat":4,"nbformat_minor":2}';
    const file = await readyNotebook(compact, 'compact.ipynb');
    const run = await notebookEdit({
      notebook_path: file,
      cell_id: 'cell-0',
      new_source: 'b = 2',
      cell_type: 'markdown',
      edit_mode: 'insert',
    });
    expect(run.data.cell_id).toBe('cell-1');
    expect(await readFile(file, 'utf8')).toBe(
      '{"cells":[{"cell_type":"code","execution_count":1,"metadata":{},"outputs":[],"source":"a = 1"},{"cell_type":"markdown","metadata":{},"source":"b = 2"}],"metadata":{},"nbformat":4,"nbformat_minor":2}',
    );
  });

  it('keeps CRLF and 4-space indentation of a notebook written by another tool', async () => {
    const nb = JSON.stringify(
      {
        cells: [{ cell_type: 'markdown', metadata: {}, source: ['old'] }],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 4,
      },
      null,
      4,
    ).replace(/\n/g, '\r\n');
    const file = await readyNotebook(`${nb}\r\n`, 'crlf.ipynb');
    await notebookEdit({ notebook_path: file, cell_id: 'cell-0', new_source: 'one\ntwo' });
    const expected = JSON.stringify(
      {
        cells: [{ cell_type: 'markdown', metadata: {}, source: ['one\n', 'two'] }],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 4,
      },
      null,
      4,
    ).replace(/\n/g, '\r\n');
    expect(await readFile(file, 'utf8')).toBe(`${expected}\r\n`);
  });
});

describe('NotebookEdit: errors name the next step', () => {
  it.each([
    [
      { cell_id: 'nope', new_source: 'x' },
      /Cell with ID "nope" not found in notebook\. Its cells are: intro, calc, last\. Read the notebook/,
      'unknown id',
    ],
    [{ cell_id: 'cell-9', new_source: 'x' }, /not found/, 'index past the end'],
    [{ new_source: 'x', edit_mode: 'insert' }, /cell_type is required when inserting/, 'insert needs a type'],
    [{ new_source: 'x' }, /cell_id is required to replace a cell/, 'replace needs a cell'],
    [{ new_source: 'x', edit_mode: 'delete' }, /cell_id is required to delete a cell/, 'delete needs a cell'],
  ])('%j', async (fields, expected, _why) => {
    const file = await readyNotebook();
    expect(await runToolError(NotebookEditTool, { notebook_path: file, ...fields }, context)).toMatch(
      expected,
    );
    expect(await readFile(file, 'utf8')).toBe(ODD_NOTEBOOK);
  });

  it('refuses a notebook that was not read, or that changed since', async () => {
    const file = path.join(dir, 'unread.ipynb');
    await writeFile(file, ODD_NOTEBOOK);
    expect(
      await runToolError(
        NotebookEditTool,
        { notebook_path: file, cell_id: 'calc', new_source: 'x' },
        context,
      ),
    ).toBe('File has not been read yet. Read it first before writing to it.');
    await runToolOk(ReadTool, { file_path: file }, context);
    await writeFile(file, ODD_NOTEBOOK.replace('Title', 'Other'));
    expect(
      await runToolError(
        NotebookEditTool,
        { notebook_path: file, cell_id: 'calc', new_source: 'x' },
        context,
      ),
    ).toMatch(/modified since read/);
  });

  it('refuses a file that is not a notebook and points to Edit', async () => {
    expect(
      await runToolError(
        NotebookEditTool,
        { notebook_path: path.join(dir, 'a.py'), cell_id: 'x', new_source: 'x' },
        context,
      ),
    ).toMatch(/must be a Jupyter notebook.*use Edit/);
  });
});

describe('NotebookEdit: contract', () => {
  it('describes a write of the resolved notebook path and is not read-only', async () => {
    const file = await readyNotebook();
    const d = await NotebookEditTool.describeCall({ notebook_path: 'nb.ipynb', new_source: '' }, context);
    expect(d).toEqual({
      ruleContents: [file],
      effects: [
        { kind: 'write', target: file, certainty: 'known', source: 'tool-input', detail: 'notebook_path' },
      ],
      findings: [],
      readOnly: false,
      summary: `NotebookEdit ${file}`,
    });
    expect(NotebookEditTool.isReadOnly({ notebook_path: file, new_source: '' })).toBe(false);
    expect(NotebookEditTool.isConcurrencySafe({ notebook_path: file, new_source: '' })).toBe(false);
  });
});
