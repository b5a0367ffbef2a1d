/**
 * `Edit` (the Claude Code tools reference): exact string replacement in a file.
 *
 * Sequence (planned in `validateInput`, so a failing edit is refused before anyone is asked to
 * approve it, and planned again in `call` against the file as it is then):
 * `old_string` = `new_string` → error; resolve the path; notebooks → NotebookEdit; missing file →
 * created when `old_string` is empty, else not-found; an existing file must have been read (a
 * partial read is enough) and be unchanged since (content hash; compat `editStaleness: relaxed`
 * lets a still-unique match through with a note); find `old_string` (exact, CRLF, quote-folded;
 * see match.ts); 0 matches → error with a recovery hint; >1 without `replace_all` → error naming
 * the count and both remedies → replace → atomic write keeping encoding, line endings and mode →
 * record the new state → `{filePath, oldString, newString, originalFile, structuredPatch,
 * userModified, replaceAll}` (observed Claude Code transcripts Edit shape) and a numbered snippet around the change.
 */
import path from 'node:path';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import type { ToolUseContext } from '../../core/index.js';
import { buildTool, invalidPathMessage, ToolInputError } from '../../core/index.js';
import { assertPermittedPath } from '../file-io/checked-open.js';
import { extensionOf } from '../file-io/binary.js';
import { commitTextWrite } from '../file-io/commit-write.js';
import { fileToolsCompat } from '../file-io/compat.js';
import { checkReadBeforeWrite, STALE_MESSAGE } from '../file-io/freshness.js';
import { applyLineEnding, detectLineEnding, directoryLineEnding } from '../file-io/line-endings.js';
import { loadPrompt } from '../file-io/load-prompt.js';
import { fileNotFoundMessage } from '../file-io/not-found.js';
import { makeStructuredPatch, type PatchHunk } from '../file-io/patch.js';
import { resolveFilePath } from '../file-io/resolve-path.js';
import { lineOfIndex, snippetAround, updatedBrief, updatedWithSnippet } from '../file-io/snippet.js';
import { loadTextFile, type TextFileSnapshot } from '../file-io/text-file.js';
import { validateByPlanning } from '../file-io/validate-plan.js';
import { insideWorkingDirectories } from '../file-io/working-area.js';
import { applyEditMatch, type EditMatch, findEditMatch } from './match.js';
import { editDescriber } from './describe.js';

const EditInput = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to change.'),
  old_string: z.string().describe('The exact text to replace, as it appears in the file.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of old_string (default false: it must occur exactly once).'),
});

export type EditInput = z.infer<typeof EditInput>;

/**
 * Structured result: Claude Code's Edit shape, plus `changedSinceRead` (present only when a file
 * changed since it was read was edited under relaxed staleness; the result text then says so).
 */
export interface EditOutput {
  filePath: string;
  oldString: string;
  newString: string;
  originalFile: string | null;
  structuredPatch: PatchHunk[];
  userModified: boolean;
  replaceAll: boolean;
  changedSinceRead?: true;
}

/** The note appended to the result text when `changedSinceRead`. */
const STALE_NOTE =
  'Note: the file had changed since you last read it; the edit was applied to its current content. ' +
  'Read it again to see the other changes.';

interface EditPlan {
  absolute: string;
  resolved: string;
  existing: TextFileSnapshot | undefined;
  newText: string;
  /** 1-based lines of the new text that hold the replacement (first occurrence). */
  changedFirstLine: number;
  changedLastLine: number;
  /** Set when a changed-since-read file was edited under relaxed staleness. */
  changedSinceRead?: true;
}

/** The text after the edit, and the lines of the new text that hold the replacement (first occurrence). */
interface EditedText {
  newText: string;
  changedFirstLine: number;
  changedLastLine: number;
}

/**
 * Applies the edit to an existing file's text (pure): `old_string` empty replaces an empty file
 * (in its line endings); otherwise the matched occurrence (or every one with `replace_all`).
 * Undefined when `old_string` does not occur. Used by the plan and, from the output, by the result
 * mapping (for the snippet around the change).
 */
function applyEditToText(text: string, input: EditInput): EditedText | undefined {
  if (input.old_string === '') {
    const newText = applyLineEnding(input.new_string, detectLineEnding(text));
    return { newText, changedFirstLine: 1, changedLastLine: lineOfIndex(newText, newText.length) };
  }
  const replaceAll = input.replace_all === true;
  const found = findEditMatch(text, input.old_string, input.new_string);
  if (!found) return undefined;
  const match = absorbLineBreak(text, found, replaceAll);
  const newText = applyEditMatch(text, match, replaceAll);
  const firstLine = lineOfIndex(newText, match.indexes[0] as number);
  return {
    newText,
    changedFirstLine: firstLine,
    changedLastLine: firstLine + Math.max(0, match.actualNew.split('\n').length - 1),
  };
}

const PREFIX_HINT = /^ *\d+(\t|\u2192)/m;

function notFoundMessage(oldString: string): string {
  const prefixHint = PREFIX_HINT.test(oldString)
    ? ' old_string seems to start lines with Read\'s line-number prefix ("   12\\t"); remove the prefixes.'
    : '';
  return (
    `String to replace not found in file.${prefixHint} Read the file again and copy old_string exactly as it ` +
    `appears, with the same whitespace and indentation.\nString: ${oldString}`
  );
}

function tooManyMessage(count: number, oldString: string): string {
  return (
    `Found ${count} matches of the string to replace, but replace_all is false. To replace all occurrences, set ` +
    'replace_all to true. To replace only one occurrence, add more surrounding context to old_string so it ' +
    `matches exactly one place.\nString: ${oldString}`
  );
}

/** When deleting text that ends a line, take the line break too, so no empty line is left behind. */
function absorbLineBreak(fileText: string, match: EditMatch, replaceAll: boolean): EditMatch {
  if (match.actualNew !== '' || match.actualOld.endsWith('\n')) return match;
  const targets = replaceAll ? match.indexes : match.indexes.slice(0, 1);
  for (const nl of ['\r\n', '\n']) {
    if (targets.every((i) => fileText.startsWith(nl, i + match.actualOld.length))) {
      return { ...match, actualOld: match.actualOld + nl };
    }
  }
  return match;
}

/**
 * Plans the edit against the file as it is now. With `permitted` (in `call`) the path must resolve
 * to what the permission decision named, and the file is read through a verified descriptor. In
 * `validateInput` (not `permitted`) a file outside the working directories is not looked at: the
 * checks wait until after the permission decision, so an unapproved call learns nothing about it.
 */
async function planEdit(
  input: EditInput,
  context: ToolUseContext,
  permitted = false,
): Promise<EditPlan | undefined> {
  const compat = fileToolsCompat(context);
  if (input.old_string === input.new_string) {
    throw new ToolInputError(
      'No changes to make: old_string and new_string are exactly the same.',
      'new_string',
    );
  }
  if (input.file_path.trim() === '') {
    throw new ToolInputError(
      'file_path is empty. Give the absolute path of the file to change.',
      'file_path',
    );
  }
  const bad = invalidPathMessage('file_path', input.file_path);
  if (bad) throw new ToolInputError(bad, 'file_path');
  const p = resolveFilePath(input.file_path, context);
  if (extensionOf(p.resolved) === 'ipynb') {
    throw new ToolInputError(
      'File is a Jupyter Notebook. Use the NotebookEdit tool to change its cells (Edit would break its JSON).',
      'file_path',
    );
  }
  if (permitted) assertPermittedPath(context, p.resolved, p.absolute);
  else if (!insideWorkingDirectories(context, p.resolved)) return undefined;
  const existing = await loadTextFile(p.resolved, p.absolute);
  if (!existing) {
    if (input.old_string !== '') {
      const message = await fileNotFoundMessage(p.absolute, context.getAppState().cwd);
      throw new ToolInputError(
        `${message} To create a new file, use Write, or Edit with an empty old_string.`,
        'file_path',
      );
    }
    const ending =
      compat.newFileLineEndings === 'directory' ? await directoryLineEnding(path.dirname(p.resolved)) : 'LF';
    const newText = applyLineEnding(input.new_string, ending);
    return {
      absolute: p.absolute,
      resolved: p.resolved,
      existing: undefined,
      newText,
      changedFirstLine: 1,
      changedLastLine: lineOfIndex(newText, newText.length),
    };
  }

  const check = checkReadBeforeWrite(context, existing, { requireFullRead: false });
  let changedSinceRead = false;
  if (!check.ok) {
    if (!(check.problem === 'stale' && compat.editStaleness === 'relaxed')) {
      throw new ToolInputError(check.message, 'file_path');
    }
    changedSinceRead = true;
  }

  if (input.old_string === '') {
    if (changedSinceRead) throw new ToolInputError(STALE_MESSAGE, 'file_path');
    if (existing.text.trim() !== '') {
      throw new ToolInputError(
        'Cannot create new file - file already exists. To change part of it give a non-empty old_string; to ' +
          'replace all of it use Write.',
        'old_string',
      );
    }
    return {
      absolute: p.absolute,
      resolved: p.resolved,
      existing,
      ...(applyEditToText(existing.text, input) as EditedText),
    };
  }

  const replaceAll = input.replace_all === true;
  const found = findEditMatch(existing.text, input.old_string, input.new_string);
  if (changedSinceRead && !(found && found.indexes.length === 1 && !found.viaQuotes && !replaceAll)) {
    // Relaxed staleness holds only for an exact, unique match in the current content (the Claude Code tools reference).
    throw new ToolInputError(STALE_MESSAGE, 'file_path');
  }
  if (!found) throw new ToolInputError(notFoundMessage(input.old_string), 'old_string');
  if (found.indexes.length > 1 && !replaceAll) {
    throw new ToolInputError(tooManyMessage(found.indexes.length, input.old_string), 'old_string');
  }
  return {
    absolute: p.absolute,
    resolved: p.resolved,
    existing,
    ...(applyEditToText(existing.text, input) as EditedText),
    ...(changedSinceRead ? { changedSinceRead: true as const } : {}),
  };
}

/**
 * The text the model sees for an edit, from the output, the input and the call's compat profile:
 * the creation or replace-all confirmation, or the update with a numbered snippet around the
 * change (classic) or one line (`editResult: 'brief'`), and the staleness note when it applies.
 */
function editContent(output: EditOutput, input: EditInput, context: ToolUseContext): string {
  const compat = fileToolsCompat(context);
  let text: string;
  if (output.originalFile === null) {
    text = `File created successfully at: ${output.filePath}`;
  } else if (output.replaceAll) {
    text = `The file ${output.filePath} has been updated. All occurrences of '${output.oldString}' were successfully replaced with '${output.newString}'.`;
  } else {
    const edited = compat.editResult === 'snippet' ? applyEditToText(output.originalFile, input) : undefined;
    text = edited
      ? updatedWithSnippet(
          output.filePath,
          snippetAround(
            edited.newText,
            edited.changedFirstLine,
            edited.changedLastLine,
            compat.readLineSeparator,
          ),
        )
      : updatedBrief(output.filePath);
  }
  if (output.changedSinceRead) text += `\n\n${STALE_NOTE}`;
  return text;
}

export const EditTool = buildTool({
  name: 'Edit',
  description: loadPrompt(import.meta.url, './edit.prompt.md'),
  inputSchema: EditInput,
  maxResultSizeChars: 100_000,
  userFacingName: (input?: EditInput) => (input?.old_string === '' ? 'Create' : 'Update'),
  toAutoClassifierInput: editDescriber.toAutoClassifierInput,

  validateInput: (input: EditInput, context: ToolUseContext) =>
    validateByPlanning(() => planEdit(input, context), 'file_path'),

  async describeCall(input: EditInput, context: ToolUseContext) {
    return editDescriber.describe(input, describeWorldOf(context));
  },

  async *call(input: EditInput, context: ToolUseContext) {
    const compat = fileToolsCompat(context);
    const plan = (await planEdit(input, context, true)) as EditPlan;
    const previous = context.readFileState.get(plan.resolved);
    await commitTextWrite({
      context,
      filePath: plan.resolved,
      displayPath: plan.absolute,
      text: plan.newText,
      encoding: plan.existing?.encoding ?? 'utf8',
      ...(plan.existing ? { mode: plan.existing.mode } : {}),
      createParents: compat.createParentDirs,
      ...(plan.existing && previous?.isPartial
        ? {
            keepPartial: {
              ...(previous.offset !== undefined ? { offset: previous.offset } : {}),
              ...(previous.limit !== undefined ? { limit: previous.limit } : {}),
            },
          }
        : {}),
    });
    const output: EditOutput = {
      filePath: plan.absolute,
      oldString: input.old_string,
      newString: input.new_string,
      originalFile: plan.existing?.text ?? null,
      structuredPatch: makeStructuredPatch(plan.absolute, plan.existing?.text ?? '', plan.newText),
      userModified: false,
      replaceAll: input.replace_all === true,
      ...(plan.changedSinceRead ? { changedSinceRead: true as const } : {}),
    };
    return { data: output };
  },

  mapToolResultToContent: (output: EditOutput, meta: { input: EditInput; context: ToolUseContext }) =>
    editContent(output, meta.input, meta.context),
});
