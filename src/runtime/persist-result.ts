/**
 * Spilling a result to disk (docs/architecture.md "Budgets and spill files"). The full content is written
 * ONCE, with exclusive create (`flag: 'wx'`), to `<sessionDir>/tool-results/<tool_use_id>.txt`
 * (`.json` for content that holds images or documents), as plain UTF-8 the Read and Grep tools can
 * open. The model receives a `<persisted-output>` block: size, the file path, a 2 KB preview and
 * whether more follows.
 *
 * An existing file with the same bytes is reused (a replayed id); an existing file with different
 * bytes is never overwritten: the next free name `<id>.1.txt`, `<id>.2.txt`… is used.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolResultContent } from '../core/index.js';
import { contentLength } from '../core/index.js';
import { claimSessionDir, enforceSessionCap } from '../tools/file-io/session-files.js';
import { PERSISTED_PREVIEW_BYTES } from './limits.js';

/** Where and how a result was spilled. */
export interface PersistedResult {
  /** Absolute path of the file holding the full output. */
  filePath: string;
  /** Characters of the original content (as budgets count them). */
  originalChars: number;
  /** Bytes written (UTF-8). */
  fileBytes: number;
  isJson: boolean;
  /** Start of the file, at most `PERSISTED_PREVIEW_BYTES` UTF-8 bytes, cut at a line end when one is near. */
  preview: string;
  /** True when the file holds more than the preview. */
  hasMore: boolean;
}

/** `tool_use` ids come from the model: keep file names to `[A-Za-z0-9_-]` so no id can escape the folder. */
export function safeFileStem(toolUseId: string): string {
  const stem = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128);
  return stem || 'tool-result';
}

/** The text written for a content value: strings as is, text-only blocks joined, anything else as JSON. */
export function serializeContent(content: ToolResultContent): { text: string; isJson: boolean } {
  if (typeof content === 'string') return { text: content, isJson: false };
  if (content.every((b) => b.type === 'text')) {
    return { text: content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'), isJson: false };
  }
  return { text: JSON.stringify(content, null, 2), isJson: true };
}

/** First `maxBytes` UTF-8 bytes of `text`, never splitting a character, cut at the last newline when it lies in the second half. */
export function makePreview(
  text: string,
  maxBytes: number = PERSISTED_PREVIEW_BYTES,
): { preview: string; hasMore: boolean } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { preview: text, hasMore: false };
  let head = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8');
  if (head.endsWith('\uFFFD')) head = head.replace(/\uFFFD+$/, '');
  const newline = head.lastIndexOf('\n');
  if (newline > head.length / 2) head = head.slice(0, newline);
  return { preview: head, hasMore: true };
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function writeExclusive(dir: string, stem: string, ext: string, text: string): Promise<string> {
  for (let n = 0; n < 100; n++) {
    const filePath = path.join(dir, n === 0 ? `${stem}${ext}` : `${stem}.${n}${ext}`);
    try {
      await writeFile(filePath, text, { encoding: 'utf8', flag: 'wx' });
      return filePath;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const existing = await readFile(filePath, 'utf8').catch(() => undefined);
      if (existing === text) return filePath;
    }
  }
  throw new Error(`could not find a free file name for ${stem}${ext} in ${dir}`);
}

/**
 * Writes `content` to `<sessionDir>/tool-results/` (created on demand). Throws the I/O error when
 * the file cannot be written; callers fall back to truncation.
 */
export async function persistToolResult(options: {
  sessionDir: string;
  toolUseId: string;
  content: ToolResultContent;
}): Promise<PersistedResult> {
  const { text, isJson } = serializeContent(options.content);
  const dir = path.join(options.sessionDir, 'tool-results');
  claimSessionDir(options.sessionDir);
  await mkdir(dir, { recursive: true });
  const filePath = await writeExclusive(
    dir,
    safeFileStem(options.toolUseId),
    isJson ? '.json' : '.txt',
    text,
  );
  // Within the session's size cap; older kept files make room (docs/reliability.md "Retention").
  await enforceSessionCap(options.sessionDir, { keep: filePath });
  const { preview, hasMore } = makePreview(text);
  return {
    filePath,
    originalChars: contentLength(options.content),
    fileBytes: Buffer.byteLength(text, 'utf8'),
    isJson,
    preview,
    hasMore,
  };
}

/** The `<persisted-output>` block the model sees instead of a spilled result. */
export function persistedOutputMessage(p: PersistedResult): string {
  const more = p.hasMore
    ? `...\n(more follows: ${p.originalChars.toLocaleString('en-US')} characters in total. Read the file with the Read tool, using offset and limit for large files, or search it with Grep.)`
    : '(end of output: the preview above is the whole result.)';
  return [
    '<persisted-output>',
    `Output too large (${formatBytes(p.fileBytes)}, ${p.originalChars.toLocaleString('en-US')} characters). Full output saved to: ${p.filePath}`,
    '',
    `Preview (first ${formatBytes(Buffer.byteLength(p.preview, 'utf8'))}):`,
    p.preview,
    more,
    '</persisted-output>',
  ].join('\n');
}
