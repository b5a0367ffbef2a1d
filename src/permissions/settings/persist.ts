/**
 * Persisting an accepted "always allow" rule (the Claude Code permissions docs destinations): appends the rule to
 * `permissions.<behavior>` of the destination file, keeping every other key, atomically (write a
 * temp file in the same directory, then rename; the file mode is preserved). The temp file is
 * `.<name>.gantry-tmp-<pid>-<hex>` and a killed writer's is swept by the next write
 * (core/stale-temp.ts). An existing file that
 * is not valid JSON is never overwritten: the call throws and says which file to fix.
 *
 * Destinations: `localSettings` → `<project>/.claude/settings.local.json`, `projectSettings` →
 * `<project>/.claude/settings.json`, `userSettings` → `~/.claude/settings.json`.
 */
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PermissionBehavior, PermissionSuggestion } from '../../core/permission-types.js';
import { removeStaleTempFilesSync, tempNameFor } from '../../core/stale-temp.js';

export type PersistDestination = Exclude<PermissionSuggestion['destination'], 'session'>;

/** The file a destination writes to. */
export function destinationFile(
  dest: PersistDestination,
  world: { projectRoot: string; home: string },
): string {
  switch (dest) {
    case 'localSettings':
      return path.join(world.projectRoot, '.claude', 'settings.local.json');
    case 'projectSettings':
      return path.join(world.projectRoot, '.claude', 'settings.json');
    case 'userSettings':
      return path.join(world.home, '.claude', 'settings.json');
  }
}

/**
 * Adds `rule` to `permissions[behavior]` in the destination file. Returns the file and whether it
 * changed (false when the rule was already there). Throws on an unparseable existing file or I/O error.
 */
export function persistRule(
  rule: string,
  behavior: PermissionBehavior,
  dest: PersistDestination,
  world: { projectRoot: string; home: string },
): { file: string; changed: boolean } {
  const file = destinationFile(dest, world);
  let settings: Record<string, unknown> = {};
  let mode: number | undefined;
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
    mode = statSync(file).mode & 0o777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== undefined && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new Error(
        `cannot add ${rule}: ${file} is not valid JSON (${(e as Error).message}); fix or remove it first`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`cannot add ${rule}: ${file} does not hold a JSON object`);
    settings = parsed as Record<string, unknown>;
  }
  const perms =
    typeof settings.permissions === 'object' &&
    settings.permissions !== null &&
    !Array.isArray(settings.permissions)
      ? (settings.permissions as Record<string, unknown>)
      : {};
  const list = Array.isArray(perms[behavior]) ? (perms[behavior] as unknown[]) : [];
  if (list.includes(rule)) return { file, changed: false };
  perms[behavior] = [...list, rule];
  settings.permissions = perms;
  mkdirSync(path.dirname(file), { recursive: true });
  // A writer SIGKILLed between create and rename leaves its temp file; the next write here removes it.
  removeStaleTempFilesSync(path.dirname(file));
  const tmp = path.join(path.dirname(file), tempNameFor(path.basename(file)));
  try {
    writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: mode ?? 0o644, flag: 'wx' });
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // the temp file was never created
    }
    throw e;
  }
  return { file, changed: true };
}
