/**
 * The session shell's working directory across Bash calls (the Claude Code tools reference "Working directory does
 * persist … a `cd` elsewhere is undone and the result gets a note that the shell cwd was reset to
 * the project dir"; `CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR=1` disables carry-over).
 *
 * - `startCwd`: where the next command starts: AppState.cwd when it still is a directory inside the
 *   allowed directories, else the project root (with a note).
 * - `nextCwd`: from the `pwd -P` the command left behind: kept when inside projectRoot or an
 *   additional directory (compared physically, after resolving symlinks of the allowed roots, and
 *   expressed back under the root as the session wrote it), else reset to projectRoot with a note.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { type AppState, fsPathResolver, isPathInside, type PathResolver } from '../../core/index.js';

export interface CwdDecision {
  cwd: string;
  /** Set when the cwd was reset: `Shell cwd was reset to <projectRoot>`. */
  note?: string;
}

type CwdState = Pick<AppState, 'projectRoot' | 'additionalDirectories' | 'cwd'>;

/** The note Claude Code appends when it undoes a `cd` out of the allowed directories. */
export function cwdResetNote(projectRoot: string): string {
  return `Shell cwd was reset to ${projectRoot}`;
}

/** The allowed directory (as written in the state) containing physical path `physical`, with `physical` mapped under it. */
function mapIntoAllowed(physical: string, state: CwdState, resolver: PathResolver): string | undefined {
  for (const root of [state.projectRoot, ...state.additionalDirectories]) {
    const realRoot = resolver.realpath(root);
    if (isPathInside(physical, realRoot)) return path.join(root, path.relative(realRoot, physical));
    if (isPathInside(physical, root)) return physical;
  }
  return undefined;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Where the next command starts (see module comment). */
export function startCwd(state: CwdState, resolver: PathResolver = fsPathResolver): CwdDecision {
  const inside = mapIntoAllowed(resolver.realpath(state.cwd), state, resolver);
  if (inside !== undefined && isDirectory(state.cwd)) return { cwd: state.cwd };
  if (state.cwd === state.projectRoot) return { cwd: state.projectRoot };
  return { cwd: state.projectRoot, note: cwdResetNote(state.projectRoot) };
}

/**
 * The session cwd after a command that ended in physical directory `finalCwd` (undefined when the
 * EXIT trap did not run: the cwd is then unchanged). `maintainProjectDir` always returns to the
 * project root, silently.
 */
export function nextCwd(options: {
  finalCwd: string | undefined;
  startedIn: string;
  state: CwdState;
  maintainProjectDir: boolean;
  resolver?: PathResolver;
}): CwdDecision {
  const { finalCwd, startedIn, state } = options;
  if (options.maintainProjectDir) return { cwd: state.projectRoot };
  if (finalCwd === undefined) return { cwd: startedIn };
  const resolver = options.resolver ?? fsPathResolver;
  if (resolver.realpath(startedIn) === finalCwd) return { cwd: startedIn };
  const mapped = mapIntoAllowed(finalCwd, state, resolver);
  if (mapped !== undefined) return { cwd: mapped };
  return { cwd: state.projectRoot, note: cwdResetNote(state.projectRoot) };
}
