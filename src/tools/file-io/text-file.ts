/**
 * Loading a whole text file for Write/Edit/NotebookEdit: bytes, decoded text, encoding, dominant
 * line ending, content hash, mtime and mode, taken from ONE read so the staleness check and the
 * edit see the same bytes.
 */
import { hashContent, ToolInputError } from '../../core/index.js';
import { type CheckedFile, openCheckedFile } from './checked-open.js';
import { hasBinaryExtension, looksBinary } from './binary.js';
import { decodeText, detectEncoding, type TextEncoding } from './encoding.js';
import { detectLineEnding, type LineEnding } from './line-endings.js';

/** Largest file Write/Edit/NotebookEdit load into memory (256 MiB). */
export const MAX_EDITABLE_FILE_BYTES = 256 * 1024 * 1024;

/** A text file as loaded for editing. */
export interface TextFileSnapshot {
  path: string;
  bytes: Buffer;
  text: string;
  encoding: TextEncoding;
  lineEnding: LineEnding;
  /** sha256 hex of `bytes`. */
  contentHash: string;
  /** mtime floored to whole milliseconds (the Claude Code tools reference: read state keeps floored ms). */
  mtimeMs: number;
  /** Permission bits. */
  mode: number;
}

/**
 * Loads `filePath` (symlink-resolved, as checked) as text through a verified descriptor
 * (checked-open.ts), or returns undefined when it does not exist.
 * @throws ToolInputError when the path is a directory or not a regular file, is binary, or is
 *   larger than {@link MAX_EDITABLE_FILE_BYTES}; PathChangedError when the path no longer leads to
 *   the checked file; other fs errors as thrown by Node.
 */
export async function loadTextFile(
  filePath: string,
  displayPath = filePath,
): Promise<TextFileSnapshot | undefined> {
  let file: CheckedFile | 'missing';
  try {
    file = await openCheckedFile(filePath, displayPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') {
      throw new ToolInputError(
        `A parent of ${filePath} is a file, not a directory. The file was not changed. Choose another path.`,
        'file_path',
      );
    }
    throw error;
  }
  if (file === 'missing') return undefined;
  try {
    return await loadFrom(file, filePath);
  } finally {
    await file.close();
  }
}

async function loadFrom(file: CheckedFile, filePath: string): Promise<TextFileSnapshot> {
  const info = file.stat;
  if (info.isDirectory()) {
    throw new ToolInputError(
      `${filePath} is a directory, not a file. Give the path of a file inside it.`,
      'file_path',
    );
  }
  if (!info.isFile()) throw new ToolInputError(`${filePath} is not a regular file (device, socket or FIFO).`);
  if (info.size > MAX_EDITABLE_FILE_BYTES) {
    throw new ToolInputError(
      `${filePath} is ${info.size} bytes, larger than the ${MAX_EDITABLE_FILE_BYTES}-byte limit for editing. ` +
        'Change it with a Bash command (e.g. sed) instead.',
    );
  }
  const bytes = await file.readAll();
  if (hasBinaryExtension(filePath) || looksBinary(bytes)) {
    throw new ToolInputError(
      `${filePath} is a binary file; it cannot be edited as text. To replace it entirely, remove it first ` +
        '(Bash `rm`) and then Write the new file.',
    );
  }
  const encoding = detectEncoding(bytes);
  const text = decodeText(bytes, encoding);
  return {
    path: filePath,
    bytes,
    text,
    encoding,
    lineEnding: detectLineEnding(text),
    contentHash: hashContent(bytes),
    mtimeMs: Math.floor(info.mtimeMs),
    mode: info.mode & 0o777,
  };
}
