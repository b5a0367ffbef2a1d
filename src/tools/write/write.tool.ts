/**
 * `Write` (spec §2.3): creates a file or replaces its whole content.
 *
 * Sequence (planned in `validateInput` so a doomed write is refused before anyone is asked to
 * approve it, and planned again in `call` against the file as it is then):
 * resolve the path → load the existing file, if any (directory / binary refused) → an existing file
 * must have been fully read and be unchanged since (read state, content hash) → keep its encoding
 * and line endings (a new file follows its directory's line-ending convention) → atomic write with
 * the mode preserved, parents created → record the new state → `{type: create|update, …,
 * structuredPatch}` (README §5.2 Write shape).
 */
import path from 'node:path';
import { z } from 'zod';
import type { ToolUseContext } from '../../core/index.js';
import { buildTool, invalidPathMessage, ToolInputError } from '../../core/index.js';
import { assertPermittedPath } from '../file-io/checked-open.js';
import { commitTextWrite } from '../file-io/commit-write.js';
import { fileToolsCompat } from '../file-io/compat.js';
import { describeFileCall } from '../file-io/describe-call.js';
import { checkReadBeforeWrite } from '../file-io/freshness.js';
import { applyLineEnding, directoryLineEnding, type LineEnding } from '../file-io/line-endings.js';
import { loadPrompt } from '../file-io/load-prompt.js';
import { modelContentOf, withModelContent } from '../file-io/model-content.js';
import { changedNewLines, makeStructuredPatch, type PatchHunk } from '../file-io/patch.js';
import { resolveFilePath } from '../file-io/resolve-path.js';
import { snippetAround, updatedBrief, updatedWithSnippet } from '../file-io/snippet.js';
import { loadTextFile, type TextFileSnapshot } from '../file-io/text-file.js';
import { insideWorkingDirectories } from '../file-io/working-area.js';

const WriteInput = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to write.'),
  content: z.string().describe('The complete new content of the file.'),
});

export type WriteInput = z.infer<typeof WriteInput>;

/** Structured result (README §5.2 Write shape). */
export interface WriteOutput {
  type: 'create' | 'update';
  filePath: string;
  content: string;
  structuredPatch: PatchHunk[];
  originalFile: string | null;
}

interface WritePlan {
  absolute: string;
  resolved: string;
  existing: TextFileSnapshot | undefined;
  text: string;
}

/** Checks that need no file: an empty path, a character no path can hold. */
function checkPathField(input: WriteInput): void {
  if (input.file_path.trim() === '') {
    throw new ToolInputError('file_path is empty. Give the absolute path of the file to write.', 'file_path');
  }
  const bad = invalidPathMessage('file_path', input.file_path);
  if (bad) throw new ToolInputError(bad, 'file_path');
}

/**
 * Plans the write against the file as it is now. With `permitted` (in `call`) the path must
 * resolve to what the permission decision named, and the file is read through a verified descriptor.
 */
async function planWrite(input: WriteInput, context: ToolUseContext, permitted = false): Promise<WritePlan> {
  checkPathField(input);
  const compat = fileToolsCompat(context);
  const p = resolveFilePath(input.file_path, context);
  if (permitted) assertPermittedPath(context, p.resolved, p.absolute);
  const existing = await loadTextFile(p.resolved, p.absolute);
  let lineEnding: LineEnding = 'LF';
  if (existing) {
    const check = checkReadBeforeWrite(context, existing, { requireFullRead: true });
    if (!check.ok) throw new ToolInputError(check.message, 'file_path');
    lineEnding = existing.lineEnding;
  } else if (compat.newFileLineEndings === 'directory') {
    lineEnding = await directoryLineEnding(path.dirname(p.resolved));
  }
  return {
    absolute: p.absolute,
    resolved: p.resolved,
    existing,
    text: applyLineEnding(input.content, lineEnding),
  };
}

export const WriteTool = buildTool({
  name: 'Write',
  description: loadPrompt(import.meta.url, './write.prompt.md'),
  inputSchema: WriteInput,
  maxResultSizeChars: 100_000,
  userFacingName: (_input?: WriteInput) => 'Write',
  toAutoClassifierInput: (input: WriteInput) =>
    `Write ${input.file_path} (${input.content.length} chars): ${input.content.slice(0, 300)}`,

  async validateInput(input: WriteInput, context: ToolUseContext) {
    try {
      checkPathField(input);
      // Outside the working directories the file is looked at only after the permission decision.
      if (!insideWorkingDirectories(context, resolveFilePath(input.file_path, context).resolved))
        return { ok: true };
      await planWrite(input, context);
      return { ok: true };
    } catch (error) {
      if (error instanceof ToolInputError) return { ok: false, message: error.message, field: 'file_path' };
      throw error;
    }
  },

  async describeCall(input: WriteInput, context: ToolUseContext) {
    return describeFileCall({
      toolName: 'Write',
      kind: 'write',
      field: 'file_path',
      requestedPath: input.file_path,
      context,
    });
  },

  async *call(input: WriteInput, context: ToolUseContext) {
    const compat = fileToolsCompat(context);
    const plan = await planWrite(input, context, true);
    await commitTextWrite({
      context,
      filePath: plan.resolved,
      displayPath: plan.absolute,
      text: plan.text,
      encoding: plan.existing?.encoding ?? 'utf8',
      ...(plan.existing ? { mode: plan.existing.mode } : {}),
      createParents: compat.createParentDirs,
    });
    if (!plan.existing) {
      const output: WriteOutput = {
        type: 'create',
        filePath: plan.absolute,
        content: input.content,
        structuredPatch: [],
        originalFile: null,
      };
      return { data: withModelContent(output, `File created successfully at: ${plan.absolute}`) };
    }
    const structuredPatch = makeStructuredPatch(plan.absolute, plan.existing.text, plan.text);
    const output: WriteOutput = {
      type: 'update',
      filePath: plan.absolute,
      content: input.content,
      structuredPatch,
      originalFile: plan.existing.text,
    };
    let text = updatedBrief(plan.absolute);
    const changed = changedNewLines(structuredPatch);
    if (compat.editResult === 'snippet' && changed) {
      const snippet = snippetAround(plan.text, changed.first, changed.last, compat.readLineSeparator);
      text = updatedWithSnippet(plan.absolute, snippet);
    }
    return { data: withModelContent(output, text) };
  },

  mapToolResultToContent: (output: WriteOutput) =>
    modelContentOf(output) ??
    (output.type === 'create'
      ? `File created successfully at: ${output.filePath}`
      : updatedBrief(output.filePath)),
});
