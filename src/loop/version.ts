/**
 * Gantry's version string, for `system/init.claude_code_version` and the transcript's `version`
 * field. Read once from the package manifest next to the sources (or the built output); `0.0.0`
 * when neither is there (an embedder that copied the sources).
 */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'gantry' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Try the next location.
    }
  }
  return '0.0.0';
}

export const GANTRY_VERSION = readVersion();
