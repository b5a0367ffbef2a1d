/**
 * The last step shared by Write, Edit and NotebookEdit: encode the new text in the file's encoding,
 * replace the file atomically (mode preserved), then record the new state in `readFileState` so the
 * next edit does not see the tool's own write as a foreign change (the Claude Code tools reference).
 *
 * Errors are rewritten for the model: what failed, that the file is unchanged, and what to do.
 */
import path from 'node:path';
import type { ToolUseContext } from '../../core/index.js';
import { hashContent, ToolExecutionError } from '../../core/index.js';
import { writeFileAtomic } from './atomic-write.js';
import { PathChangedError } from './checked-open.js';
import { encodeText, type TextEncoding } from './encoding.js';
import { recordFileState } from './freshness.js';

export interface CommittedWrite {
  encoding: TextEncoding;
  mtimeMs: number;
  bytes: number;
}

/**
 * Writes `text` to `filePath` (symlink-resolved, as checked; the write happens in that verified
 * directory) and records it.
 * @param mode - the existing file's permission bits (undefined for a new file).
 * @param keepPartial - record the file as partially read (an Edit after a partial Read).
 * @throws ToolExecutionError with a model-facing message; the file is unchanged when it throws.
 */
export async function commitTextWrite(options: {
  context: Pick<ToolUseContext, 'readFileState'>;
  filePath: string;
  displayPath: string;
  text: string;
  encoding: TextEncoding;
  mode?: number;
  createParents: boolean;
  keepPartial?: { offset?: number; limit?: number };
}): Promise<CommittedWrite> {
  const { bytes, encoding } = encodeText(options.text, options.encoding);
  let written: { mtimeMs: number };
  try {
    written = await writeFileAtomic(options.filePath, bytes, {
      createParents: options.createParents,
      displayPath: options.displayPath,
      // The rename would replace a read-only file too; refuse as writing in place would.
      requireWritable: options.mode !== undefined,
      ...(options.mode !== undefined ? { mode: options.mode } : {}),
    });
  } catch (error) {
    if (error instanceof PathChangedError) throw error;
    throw new ToolExecutionError(writeErrorMessage(error, options.displayPath));
  }
  recordFileState(options.context, options.filePath, {
    contentHash: hashContent(bytes),
    mtimeMs: written.mtimeMs,
    isPartial: options.keepPartial !== undefined,
    text: options.text,
    ...(options.keepPartial ?? {}),
  });
  return { encoding, mtimeMs: Math.floor(written.mtimeMs), bytes: bytes.length };
}

function writeErrorMessage(error: unknown, displayPath: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  const unchanged = 'The file was not changed.';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `Permission denied writing ${displayPath}. ${unchanged} The file or its directory is not writable by this process; ask the user to change its permissions.`;
    case 'ENOENT':
      return `The directory of ${displayPath} does not exist (${path.dirname(displayPath)}). ${unchanged} Create it first (Bash: mkdir -p).`;
    case 'ENOTDIR':
      return `A parent of ${displayPath} is a file, not a directory. ${unchanged} Choose another path.`;
    case 'EISDIR':
      return `${displayPath} is a directory. ${unchanged} Give the path of a file.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `No space left to write ${displayPath}. ${unchanged}`;
    default:
      return `Writing ${displayPath} failed (${(error as Error).message}). ${unchanged}`;
  }
}
