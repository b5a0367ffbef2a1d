/**
 * Locates ../shared (the team's data: security corpus, real commands, transcripts) for tests and
 * benchmarks. Never copy that data into the repo; load it from here at test time.
 *
 * - Found: returns the absolute path.
 * - Missing under CI (`CI` set): throws, so a CI run without the data fails loudly.
 * - Missing elsewhere (a user's clone): returns undefined and prints a loud warning once; tests
 *   then skip with `describe.skipIf(!dir)`.
 *
 * Override the location with `GANTRY_SHARED_DIR`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let warned = false;

/** Absolute path of ../shared, or undefined outside CI when it is missing. */
export function sharedDir(): string | undefined {
  const dir = process.env.GANTRY_SHARED_DIR ?? path.resolve(repoRoot, '../shared');
  if (existsSync(path.join(dir, 'data'))) return dir;
  if (process.env.CI) {
    throw new Error(
      `../shared is missing (looked in ${dir}); CI must have it. Set GANTRY_SHARED_DIR to override.`,
    );
  }
  if (!warned) {
    warned = true;
    console.warn(`\n*** ../shared not found at ${dir}: tests that use the shared corpora are SKIPPED ***\n`);
  }
  return undefined;
}

/** Absolute path of a file under ../shared, or undefined (see sharedDir). */
export function sharedFile(rel: string): string | undefined {
  const dir = sharedDir();
  if (!dir) return undefined;
  const p = path.join(dir, rel);
  if (!existsSync(p)) {
    if (process.env.CI) throw new Error(`shared file missing: ${p}`);
    return undefined;
  }
  return p;
}

/** The repository root (for tests that need bundled examples). */
export const REPO_ROOT = repoRoot;
