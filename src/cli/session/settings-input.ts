/**
 * `--settings <file|json>` values (Claude Code documentation, "CLI reference"): a value whose first
 * non-blank character is `{` is inline JSON, anything else a file path (relative to the cwd).
 *
 * Inline JSON must parse to an object (else a `SettingsInputError` naming the flag). It is written
 * to a private temporary file (mode 0600 in a fresh 0700 directory) so the settings loader reads it
 * like any `--settings` file, with its relative paths anchored at the session's cwd; `dispose()`
 * removes the directory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export class SettingsInputError extends Error {
  override readonly name = 'SettingsInputError';
}

export interface SettingsInput {
  /** Absolute file paths in the order given. */
  files: string[];
  /** Anchor directory per file (inline JSON → the cwd). */
  anchors: Record<string, string>;
  /** The files that came from inline JSON (their problems name the flag, not the temp path). */
  inline: Set<string>;
  dispose(): void;
}

export function isInlineJson(value: string): boolean {
  return value.trimStart().startsWith('{');
}

/** Resolves `--settings` values (see the module comment). Throws `SettingsInputError`. */
export function resolveSettingsInput(values: readonly string[], cwd: string): SettingsInput {
  const files: string[] = [];
  const anchors: Record<string, string> = {};
  const inline = new Set<string>();
  let dir: string | undefined;
  const dispose = (): void => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  };
  values.forEach((value, i) => {
    if (!isInlineJson(value)) {
      files.push(path.resolve(cwd, value));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (e) {
      dispose();
      throw new SettingsInputError(`--settings: the inline JSON does not parse (${(e as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      dispose();
      throw new SettingsInputError('--settings: the inline JSON must be an object');
    }
    dir ??= mkdtempSync(path.join(tmpdir(), 'gantry-settings-'));
    const file = path.join(dir, `inline-${i + 1}.json`);
    writeFileSync(file, value, { mode: 0o600 });
    files.push(file);
    anchors[file] = cwd;
    inline.add(file);
  });
  return { files, anchors, inline, dispose };
}
