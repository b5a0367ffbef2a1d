/**
 * Loads a tool's model-facing description from the `.prompt.md` file beside it (* prompt text lives in a sibling file, reviewed as prose). Trailing whitespace is trimmed so the
 * rendered definition is byte-stable.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Reads `file` relative to `moduleUrl` (pass `import.meta.url`).
 * @throws when the file is missing: a tool without its description must not load.
 */
export function loadPrompt(moduleUrl: string, file: string): string {
  return readFileSync(fileURLToPath(new URL(file, moduleUrl)), 'utf8').trimEnd();
}
