/**
 * `--settings <file|json>` values (Claude Code documentation, "CLI reference"): a value whose first
 * non-blank character is `{` is inline JSON, anything else a file path (relative to the cwd).
 *
 * Inline JSON must parse to an object (else a `SettingsInputError` naming the flag). It is written
 * to a private file (mode 0600) so every reader of settings files (the permission loader, the MCP
 * and extras readers) reads it like any `--settings` file, with its relative paths anchored at the
 * session's cwd. The file sits in Gantry's own state, not the system temp directory:
 * `~/.gantry/tmp/settings-<pid>-<random>/` (0700, with an `owner.json` naming this process,
 * core/owned-dirs.ts). `dispose()` removes it; a session that was SIGKILLed cannot, so every
 * resolution first sweeps the directories whose owner is gone (docs/reliability.md, "Temp files").
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeOwnedDir, sweepStaleOwnedDirs } from '../../core/owned-dirs.js';

/** Name prefix of the inline-settings directories in `~/.gantry/tmp/`. */
export const SETTINGS_DIR_PREFIX = 'settings-';

/** Where inline settings are written for the user whose home is `home`: `<home>/.gantry/tmp`. */
export function settingsTempBase(home: string): string {
  return path.join(home, '.gantry', 'tmp');
}

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

/**
 * Resolves `--settings` values (see the module comment); `home` is the user's home (its
 * `.gantry/tmp/` holds inline JSON). Throws `SettingsInputError` (also when that directory cannot
 * be written).
 */
export function resolveSettingsInput(values: readonly string[], cwd: string, home: string): SettingsInput {
  const base = settingsTempBase(home);
  sweepStaleOwnedDirs(base, SETTINGS_DIR_PREFIX);
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
    let file: string;
    try {
      dir ??= makeOwnedDir(base, SETTINGS_DIR_PREFIX);
      file = path.join(dir, `inline-${i + 1}.json`);
      writeFileSync(file, value, { mode: 0o600 });
    } catch (e) {
      dispose();
      throw new SettingsInputError(
        `--settings: cannot keep the inline JSON in ${base} (${(e as Error).message})`,
      );
    }
    files.push(file);
    anchors[file] = cwd;
    inline.add(file);
  });
  return { files, anchors, inline, dispose };
}
