/**
 * The session's plan file: `~/.gantry/plans/<session id>.md` (Gantry's own directory; never
 * another agent's), or `<plansDirectory>/<session id>.md` when the settings name a directory
 * (Claude Code's `plansDirectory` setting: relative paths are taken from the project root). The
 * host puts the path in `AppState.planFilePath` at start (`ToolRuntimeOptions.planFilePath`);
 * EnterPlanMode keeps it there; in plan mode the model writes its plan there, and ExitPlanMode
 * reads it.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** A `plansDirectory` setting and the project root it is relative to. */
export interface PlansDirectorySetting {
  /** The setting's value: absolute, `~/…`, or relative to `projectRoot`. */
  directory: string;
  projectRoot: string;
}

/** `~/.gantry/plans`, or the configured directory (resolved; `~` is the home). */
export function plansDirectory(home: string = homedir(), configured?: PlansDirectorySetting): string {
  if (!configured) return path.join(home, '.gantry', 'plans');
  const d = configured.directory;
  if (d === '~' || d.startsWith('~/')) return path.join(home, d.slice(1));
  return path.resolve(configured.projectRoot, d);
}

/** The plan file of `sessionId` (characters outside `[A-Za-z0-9_.-]` become `_`). */
export function planFileFor(sessionId: string, home?: string, configured?: PlansDirectorySetting): string {
  return path.join(plansDirectory(home, configured), `${sessionId.replace(/[^A-Za-z0-9_.-]/g, '_')}.md`);
}

/** The plan's text, or undefined when the file does not exist or is blank. */
export async function readPlan(file: string): Promise<string | undefined> {
  try {
    const text = await readFile(file, 'utf8');
    return text.trim() ? text : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
