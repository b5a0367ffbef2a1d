/**
 * Layout-preserving cell edits on notebook text: only the bytes of the edited cell (or the inserted
 * or removed cell and one separator) change; everything else, including the notebook metadata, key
 * order, indentation and the trailing newline, is copied from the original text.
 *
 * - Replace: when the cell keeps the same keys in the same order, only the values that changed are
 *   re-written (in the document's style, at their nesting depth); otherwise the cell is re-written
 *   with every unchanged member's original text reused verbatim.
 * - Insert: the new cell is written in the document's style and joined with the same separator the
 *   document uses between cells.
 * - Delete: the cell is removed with the separator on one side.
 */
import type { Notebook, NotebookCell } from '../file-io/notebook.js';
import { parseNotebook } from '../file-io/notebook.js';
import {
  detectJsonStyle,
  type JsonNode,
  type JsonStyle,
  lineStart,
  parseJsonSpans,
  serializeJson,
} from './json-layout.js';

/** Nesting depth of a cell object: root {0} → "cells" array value {1} → cell {2}. */
const CELL_DEPTH = 2;

export interface NotebookDocument {
  text: string;
  notebook: Notebook;
  style: JsonStyle;
  cells: Extract<JsonNode, { kind: 'array' }>;
}

/**
 * Parses notebook text with positions.
 * @throws ToolInputError (via parseNotebook) for invalid JSON or a missing `cells` array.
 */
export function openNotebookDocument(filePath: string, text: string): NotebookDocument {
  const notebook = parseNotebook(filePath, text);
  const root = parseJsonSpans(text);
  if (root.kind !== 'object') throw new Error('notebook root is not an object');
  const cellsMember = root.members.find((m) => m.key === 'cells');
  if (!cellsMember || cellsMember.value.kind !== 'array') throw new Error('notebook has no cells array');
  return { text, notebook, style: detectJsonStyle(text, root), cells: cellsMember.value };
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Writes `cell` at CELL_DEPTH, reusing the original text of members that did not change. */
function serializeCell(
  doc: NotebookDocument,
  cell: NotebookCell,
  original?: { node: JsonNode; value: NotebookCell },
): string {
  const members = Object.entries(cell).map(([key, value]) => {
    const originalMember =
      original?.node.kind === 'object' ? original.node.members.find((m) => m.key === key) : undefined;
    const valueText =
      originalMember && sameJson(original?.value[key], value)
        ? doc.text.slice(originalMember.value.start, originalMember.value.end)
        : serializeJson(value, CELL_DEPTH + 1, doc.style);
    return `${lineStart(CELL_DEPTH + 1, doc.style)}${serializeJson(key, 0, doc.style)}${doc.style.keySeparator}${valueText}`;
  });
  if (members.length === 0) return '{}';
  const separator = doc.style.indent === null ? doc.style.compactItemSeparator : ',';
  return `{${members.join(separator)}${lineStart(CELL_DEPTH, doc.style)}}`;
}

/** The text with cell `index` replaced by `cell`. */
export function replaceCellText(doc: NotebookDocument, index: number, cell: NotebookCell): string {
  const node = doc.cells.items[index] as JsonNode;
  const original = doc.notebook.cells[index] as NotebookCell;
  const sameKeys = sameJson(Object.keys(original), Object.keys(cell));
  if (!sameKeys || node.kind !== 'object') {
    return splice(doc.text, node.start, node.end, serializeCell(doc, cell, { node, value: original }));
  }
  // Same keys in the same order: re-write only the changed values, last first so offsets hold.
  let text = doc.text;
  for (const member of [...node.members].reverse()) {
    if (sameJson(original[member.key], cell[member.key])) continue;
    text = splice(
      text,
      member.value.start,
      member.value.end,
      serializeJson(cell[member.key], CELL_DEPTH + 1, doc.style),
    );
  }
  return text;
}

/** The separator the document uses between cells (`,` plus the whitespace before the next cell). */
function cellSeparator(doc: NotebookDocument): string {
  const [first, second] = doc.cells.items;
  if (first && second) return doc.text.slice(first.end, second.start);
  const separator = doc.style.indent === null ? doc.style.compactItemSeparator : ',';
  return separator + lineStart(CELL_DEPTH, doc.style);
}

/** The text with `cell` inserted after cell `afterIndex` (-1 = at the start). */
export function insertCellText(doc: NotebookDocument, afterIndex: number, cell: NotebookCell): string {
  const cellText = serializeCell(doc, cell);
  const items = doc.cells.items;
  if (items.length === 0) {
    const body = `[${lineStart(CELL_DEPTH, doc.style)}${cellText}${lineStart(CELL_DEPTH - 1, doc.style)}]`;
    return splice(doc.text, doc.cells.start, doc.cells.end, body);
  }
  if (afterIndex < 0) {
    const first = items[0] as JsonNode;
    return splice(doc.text, first.start, first.start, cellText + cellSeparator(doc));
  }
  const after = items[afterIndex] as JsonNode;
  return splice(doc.text, after.end, after.end, cellSeparator(doc) + cellText);
}

/** The text with cell `index` removed. */
export function deleteCellText(doc: NotebookDocument, index: number): string {
  const items = doc.cells.items;
  const node = items[index] as JsonNode;
  const next = items[index + 1];
  const previous = items[index - 1];
  if (next) return splice(doc.text, node.start, next.start, '');
  if (previous) return splice(doc.text, previous.end, node.end, '');
  return splice(doc.text, doc.cells.start, doc.cells.end, '[]');
}
