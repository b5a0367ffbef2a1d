/**
 * `Write` (the Claude Code tools reference): creates a file or replaces its whole content.
 *
 * Sequence (planned in `validateInput` so a doomed write is refused before anyone is asked to
 * approve it, and planned again in `call` against the file as it is then):
 * resolve the path → load the existing file, if any (directory / binary refused) → an existing file
 * must have been fully read and be unchanged since (read state, content hash) → keep its encoding
 * and line endings (a new file follows its directory's line-ending convention) → atomic write with
 * the mode preserved, parents created → record the new state → `{type: create|update, …,
 * structuredPatch}` (observed Claude Code transcripts Write shape).
 */
import path from 'node:path';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import type { ToolUseContext } from '../../core/index.js';
import { buildTool, invalidPathMessage, ToolInputError } from '../../core/index.js';
import { assertPermittedPath } from '../file-io/checked-open.js';
import { commitTextWrite } from '../file-io/commit-write.js';
import { fileToolsCompat } from '../file-io/compat.js';
import { checkReadBeforeWrite } from '../file-io/freshness.js';
import {
  applyLineEnding,
  detectLineEnding,
  directoryLineEnding,
  type LineEnding,
} from '../file-io/line-endings.js';
import { loadPrompt } from '../file-io/load-prompt.js';
import { changedNewLines, makeStructuredPatch, type PatchHunk } from '../file-io/patch.js';
import { resolveFilePath } from '../file-io/resolve-path.js';
import { snippetAround, updatedBrief, updatedWithSnippet } from '../file-io/snippet.js';
import { loadTextFile, type TextFileSnapshot } from '../file-io/text-file.js';
import { validateByPlanning } from '../file-io/validate-plan.js';
import { insideWorkingDirectories } from '../file-io/working-area.js';
import { writeDescriber } from './describe.js';

const WriteInput = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to write.'),
  content: z.string().describe('The complete new content of the file.'),
});

export type WriteInput = z.infer<typeof WriteInput>;

/** Structured result (observed Claude Code transcripts Write shape). */
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
 * In `validateInput` (not `permitted`) a file outside the working directories is not looked at:
 * the checks wait until after the permission decision, so an unapproved call learns nothing about it.
 */
async function planWrite(
  input: WriteInput,
  context: ToolUseContext,
  permitted = false,
): Promise<WritePlan | undefined> {
  checkPathField(input);
  const compat = fileToolsCompat(context);
  const p = resolveFilePath(input.file_path, context);
  if (permitted) assertPermittedPath(context, p.resolved, p.absolute);
  else if (!insideWorkingDirectories(context, p.resolved)) return undefined;
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

/**
 * The text the model sees for a write, from the output and the call's compat profile: the creation
 * confirmation, or the update with a numbered snippet of the changed lines (classic) or one line
 * (`editResult: 'brief'`). The written text is the content in the old file's line endings.
 */
function writeContent(output: WriteOutput, context: ToolUseContext): string {
  if (output.type === 'create' || output.originalFile === null) {
    return `File created successfully at: ${output.filePath}`;
  }
  const compat = fileToolsCompat(context);
  const changed = changedNewLines(output.structuredPatch);
  if (compat.editResult !== 'snippet' || !changed) return updatedBrief(output.filePath);
  const written = applyLineEnding(output.content, detectLineEnding(output.originalFile));
  const snippet = snippetAround(written, changed.first, changed.last, compat.readLineSeparator);
  return updatedWithSnippet(output.filePath, snippet);
}

export const WriteTool = buildTool({
  name: 'Write',
  description: loadPrompt(import.meta.url, './write.prompt.md'),
  inputSchema: WriteInput,
  maxResultSizeChars: 100_000,
  userFacingName: (_input?: WriteInput) => 'Write',
  toAutoClassifierInput: writeDescriber.toAutoClassifierInput,

  validateInput: (input: WriteInput, context: ToolUseContext) =>
    validateByPlanning(() => planWrite(input, context), 'file_path'),

  async describeCall(input: WriteInput, context: ToolUseContext) {
    return writeDescriber.describe(input, describeWorldOf(context));
  },

  async *call(input: WriteInput, context: ToolUseContext) {
    const compat = fileToolsCompat(context);
    const plan = (await planWrite(input, context, true)) as WritePlan;
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
      return { data: output };
    }
    const output: WriteOutput = {
      type: 'update',
      filePath: plan.absolute,
      content: input.content,
      structuredPatch: makeStructuredPatch(plan.absolute, plan.existing.text, plan.text),
      originalFile: plan.existing.text,
    };
    return { data: output };
  },

  mapToolResultToContent: (output: WriteOutput, meta: { context: ToolUseContext }) =>
    writeContent(output, meta.context),
});
