/**
 * Settings files and their precedence (the Claude Code permissions docs), highest first:
 *
 *   managed  /etc/gantry/managed-settings.json, /etc/claude-code/managed-settings.json (+ `.d/*.json`)
 *   cliArg   `--settings <file>` files (and the CLI flags themselves)
 *   local    <project>/.gantry/settings.local.json, <project>/.claude/settings.local.json
 *   project  <project>/.gantry/settings.json,       <project>/.claude/settings.json
 *   user     ~/.gantry/settings.json,                ~/.claude/settings.json
 *   session  rules added at run time
 *
 * At each level Gantry's file comes before Claude Code's, so a Gantry-specific scalar wins; rule
 * lists from every file are unioned anyway. Claude Code's files are read as they are.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { SettingsSourceSpec } from './types.js';

export const DEFAULT_MANAGED_FILES = [
  '/etc/gantry/managed-settings.json',
  '/etc/claude-code/managed-settings.json',
] as const;

export interface SourceOptions {
  projectRoot: string;
  home: string;
  /** Managed settings files (default DEFAULT_MANAGED_FILES); each may have a sibling `<name>.d/`. */
  managedFiles?: readonly string[];
  /** `--settings` files. */
  settingsFiles?: readonly string[];
  /**
   * Where relative paths of a `--settings` file anchor, by absolute file path (default: the
   * file's folder). Inline `--settings '{…}'` JSON, which the CLI writes to a temporary file,
   * anchors at the session's working directory.
   */
  settingsAnchors?: Readonly<Record<string, string>>;
  /** `--setting-sources`: which of user/project/local to read (default all). */
  settingSources?: readonly ('user' | 'project' | 'local')[];
}

function dropIns(file: string): string[] {
  const dir = `${file.replace(/\.json$/, '')}.d`;
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

/** The settings files to read, highest precedence first. */
export function settingsSources(opts: SourceOptions): SettingsSourceSpec[] {
  const { projectRoot, home } = opts;
  const want = new Set(opts.settingSources ?? ['user', 'project', 'local']);
  const out: SettingsSourceSpec[] = [];
  for (const file of opts.managedFiles ?? DEFAULT_MANAGED_FILES) {
    const flavor = file.includes('gantry') ? 'gantry' : 'claude';
    for (const f of [file, ...dropIns(file)])
      out.push({
        source: 'managed',
        file: f,
        flavor,
        pathRoot: path.dirname(file),
        sandboxRoot: '/',
        projectSupplied: false,
      });
  }
  for (const file of opts.settingsFiles ?? []) {
    const abs = path.resolve(projectRoot, file);
    const anchor =
      (opts.settingsAnchors && Object.hasOwn(opts.settingsAnchors, abs) && opts.settingsAnchors[abs]) ||
      path.dirname(abs);
    out.push({
      source: 'cliArg',
      file: abs,
      flavor: 'gantry',
      pathRoot: anchor,
      sandboxRoot: anchor,
      projectSupplied: false,
    });
  }
  const project = (source: 'localSettings' | 'projectSettings', name: string): void => {
    for (const [dir, flavor] of [
      ['.gantry', 'gantry'],
      ['.claude', 'claude'],
    ] as const)
      out.push({
        source,
        file: path.join(projectRoot, dir, name),
        flavor,
        pathRoot: projectRoot,
        sandboxRoot: projectRoot,
        projectSupplied: true,
      });
  };
  if (want.has('local')) project('localSettings', 'settings.local.json');
  if (want.has('project')) project('projectSettings', 'settings.json');
  if (want.has('user'))
    for (const [dir, flavor] of [
      ['.gantry', 'gantry'],
      ['.claude', 'claude'],
    ] as const)
      out.push({
        source: 'userSettings',
        file: path.join(home, dir, 'settings.json'),
        flavor,
        pathRoot: path.join(home, dir),
        sandboxRoot: path.join(home, dir),
        projectSupplied: false,
      });
  return out;
}
