/**
 * The session's plan file: `~/.gantry/plans/<session id>.md` (Gantry's own directory; never
 * another agent's). EnterPlanMode records its path in `AppState.planFilePath`; in plan mode the
 * model writes its plan there, and ExitPlanMode reads it.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** `~/.gantry/plans`. */
export function plansDirectory(home: string = homedir()): string {
  return path.join(home, '.gantry', 'plans');
}

/** The plan file of `sessionId` (characters outside `[A-Za-z0-9_.-]` become `_`). */
export function planFileFor(sessionId: string, home?: string): string {
  return path.join(plansDirectory(home), `${sessionId.replace(/[^A-Za-z0-9_.-]/g, '_')}.md`);
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
