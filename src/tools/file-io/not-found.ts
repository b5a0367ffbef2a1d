/**
 * The "file does not exist" message, with what helps the model recover: the session's cwd (a
 * relative path may have been meant against another directory) and, when one exists, a sibling
 * with the same name but another extension or letter case.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Real Claude Code wording of the first sentence (transcripts, observed Claude Code transcripts). */
export const FILE_NOT_FOUND = 'File does not exist.';

/** A sibling of `filePath` that the model probably meant, or undefined. Never throws. */
export async function similarFile(filePath: string): Promise<string | undefined> {
  const dir = path.dirname(filePath);
  const base = path.basename(filePath);
  const stem = base.slice(0, base.length - path.extname(base).length).toLowerCase();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const sameIgnoringCase = names.find((n) => n.toLowerCase() === base.toLowerCase());
  if (sameIgnoringCase) return path.join(dir, sameIgnoringCase);
  const sameStem = names.find(
    (n) => n !== base && n.slice(0, n.length - path.extname(n).length).toLowerCase() === stem,
  );
  return sameStem ? path.join(dir, sameStem) : undefined;
}

/** Full not-found message for `filePath` (absolute) in a session whose cwd is `cwd`. */
export async function fileNotFoundMessage(filePath: string, cwd: string): Promise<string> {
  const suggestion = await similarFile(filePath);
  const hint = suggestion ? ` Did you mean ${suggestion}?` : '';
  return `${FILE_NOT_FOUND} ${filePath} was not found (current working directory: ${cwd}).${hint}`;
}
