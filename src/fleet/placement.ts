/**
 * Placement (docs/fleet.md, "Placement"): where a session's working directory lives.
 *
 * - `cwd` given: that directory, as is (every worker must see it: one machine, or a shared file
 *   system).
 * - `repo` given: a fresh clone of the session's branch on the worker that runs this execution,
 *   under `<work root>/<session>-<execution>`. The work root is `$GANTRY_FLEET_WORK`, else
 *   `<tmp>/gantry-fleet-work-<uid>`: not under `~/.gantry/`, whose files are agent configuration
 *   that every write asks before changing (a checkout there made each edit of the session ask). The branch is created from the repository's
 *   default branch when it does not exist yet. After every call with effects the tree is
 *   committed and pushed to the branch (`checkpoint`), so a session whose worker is gone resumes
 *   on another worker from what its completed calls left; a call cut off mid-run is reported as
 *   interrupted (durable-tools.ts), and what it may have written is not in the branch.
 *
 * Errors: a failing git command throws with its output (the session then fails, visibly).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', args, {
      cwd,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        GIT_TERMINAL_PROMPT: '0',
        GIT_AUTHOR_NAME: process.env.GIT_AUTHOR_NAME ?? 'gantry fleet',
        GIT_AUTHOR_EMAIL: process.env.GIT_AUTHOR_EMAIL ?? 'fleet@gantry.invalid',
        GIT_COMMITTER_NAME: process.env.GIT_COMMITTER_NAME ?? 'gantry fleet',
        GIT_COMMITTER_EMAIL: process.env.GIT_COMMITTER_EMAIL ?? 'fleet@gantry.invalid',
      },
    });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

export interface Placement {
  cwd: string;
  /** Commits and pushes the tree after a call with effects (no-op without a repository). */
  checkpoint(label: string): Promise<void>;
  /** Removes a checkout this execution made. */
  release(): Promise<void>;
}

export interface PlaceOptions {
  sessionId: string;
  executionId: string;
  /** Where checkouts go (`defaultWorkRoot()`); never under a `.gantry` folder (see below). */
  workRoot: string;
  cwd?: string;
  repo?: string;
  branch?: string;
}

/** `$GANTRY_FLEET_WORK`, else `<tmp>/gantry-fleet-work-<uid>`. */
export function defaultWorkRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.GANTRY_FLEET_WORK) return path.resolve(env.GANTRY_FLEET_WORK);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(tmpdir(), `gantry-fleet-work-${uid}`);
}

export const defaultBranch = (sessionId: string): string => `gantry/fleet/${sessionId}`;

export async function placeSession(o: PlaceOptions): Promise<Placement> {
  if (!o.repo) {
    if (!o.cwd) throw new Error('a fleet session needs `cwd` or `repo`');
    return { cwd: o.cwd, checkpoint: async () => undefined, release: async () => undefined };
  }
  const branch = o.branch ?? defaultBranch(o.sessionId);
  const root = o.workRoot;
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = path.join(root, `${o.sessionId}-${o.executionId.slice(0, 8)}`);
  rmSync(dir, { recursive: true, force: true });
  await git(root, ['clone', '--quiet', '--no-tags', o.repo, dir]);
  const remote = (await git(dir, ['ls-remote', '--heads', 'origin', branch])).trim();
  if (remote) await git(dir, ['checkout', '--quiet', '-B', branch, `origin/${branch}`]);
  else await git(dir, ['checkout', '--quiet', '-b', branch]);
  return {
    cwd: dir,
    async checkpoint(label) {
      const status = (await git(dir, ['status', '--porcelain'])).trim();
      if (!status) return;
      await git(dir, ['add', '-A']);
      await git(dir, ['commit', '--quiet', '--no-verify', '-m', `gantry fleet: after ${label}`]);
      await git(dir, ['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
    },
    async release() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
