/**
 * The session's environment, split in two the way Claude Code splits it (docs/loop.md, "System
 * prompt"):
 *
 * - `environmentSection` — facts that do not change during a session (working directory, whether
 *   it is a git repository, platform, shell, OS version, model). It goes in the cached system
 *   prompt.
 * - `sessionContextText` — facts that are only true at the start (today's date, a git status
 *   snapshot). They travel in a message (the first user message), never in the cached system
 *   blocks, so a new day or a new commit does not invalidate the cached prefix of every session.
 *
 * Git is asked with `-c core.fsmonitor=false` and `GIT_OPTIONAL_LOCKS=0`: a repository's own
 * configuration must not make the harness run a program (core.fsmonitor is such a hook), and a
 * status query must not take the index lock from the user's own git commands. Every git call has a
 * timeout; a failure just leaves that line out.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Most characters of `git status --short` kept in the snapshot. */
export const GIT_STATUS_MAX_CHARS = 2_000;
/** Per git call. */
const GIT_TIMEOUT_MS = 3_000;

export interface EnvironmentFacts {
  cwd: string;
  additionalDirectories: readonly string[];
  isGitRepo: boolean;
  platform: string;
  shell: string;
  osVersion: string;
  model: string;
}

export interface GitSnapshot {
  branch?: string;
  mainBranch?: string;
  status?: string;
  recentCommits?: string;
}

/** The nearest directory at or above `dir` that holds `.git` (a directory or a worktree file). */
export function findGitRoot(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

export function environmentFacts(options: {
  cwd: string;
  additionalDirectories?: readonly string[];
  model: string;
  env?: Readonly<Record<string, string | undefined>>;
}): EnvironmentFacts {
  const env = options.env ?? process.env;
  return {
    cwd: options.cwd,
    additionalDirectories: options.additionalDirectories ?? [],
    isGitRepo: findGitRoot(options.cwd) !== undefined,
    platform: process.platform,
    shell: path.basename(env.SHELL ?? '/bin/sh'),
    osVersion: `${os.type()} ${os.release()}`,
    model: options.model,
  };
}

/** The `# Environment` section of the system prompt (stable for the session). */
export function environmentSection(facts: EnvironmentFacts): string {
  const lines = [
    '# Environment',
    `- Working directory: ${facts.cwd}`,
    ...(facts.additionalDirectories.length
      ? [`- Additional working directories: ${facts.additionalDirectories.join(', ')}`]
      : []),
    `- Git repository: ${facts.isGitRepo ? 'yes' : 'no'}`,
    `- Platform: ${facts.platform}`,
    `- Shell: ${facts.shell}`,
    `- OS version: ${facts.osVersion}`,
    `- Model: ${facts.model}`,
  ];
  return lines.join('\n');
}

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '--no-pager', ...args],
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 1024 * 1024,
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      },
      (error, stdout) => resolve(error ? undefined : stdout.trimEnd()),
    );
  });
}

/** Branch, main branch, short status and the last commits of the repository at `cwd`. */
export async function gitSnapshot(cwd: string): Promise<GitSnapshot | undefined> {
  if (!findGitRoot(cwd)) return undefined;
  const [branch, originHead, hasMain, status, log] = await Promise.all([
    git(cwd, ['branch', '--show-current']),
    git(cwd, ['rev-parse', '--abbrev-ref', 'origin/HEAD']),
    git(cwd, ['rev-parse', '--verify', '--quiet', 'refs/heads/main']),
    git(cwd, ['status', '--short']),
    git(cwd, ['log', '--oneline', '-n', '5']),
  ]);
  const snapshot: GitSnapshot = {};
  if (branch) snapshot.branch = branch;
  const main = originHead?.replace(/^origin\//, '') || (hasMain ? 'main' : undefined);
  if (main) snapshot.mainBranch = main;
  if (status !== undefined) {
    snapshot.status =
      status.length > GIT_STATUS_MAX_CHARS
        ? `${status.slice(0, GIT_STATUS_MAX_CHARS)}\n… (truncated; run git status for the rest)`
        : status || '(clean)';
  }
  if (log) snapshot.recentCommits = log;
  return snapshot;
}

/** ISO date (YYYY-MM-DD) in local time. */
export function localDate(now: Date): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/**
 * The per-session context message text: date and git snapshot, wrapped in a `<system-reminder>`
 * so the model can tell it from the user's words.
 */
export function sessionContextText(options: { now: Date; git?: GitSnapshot }): string {
  const lines = [
    '<system-reminder>',
    'Context captured when this session started (it is not updated as the session goes on):',
    `- Today's date: ${localDate(options.now)}`,
  ];
  const g = options.git;
  if (g) {
    lines.push('', '# Git status at session start');
    if (g.branch) lines.push(`Current branch: ${g.branch}`);
    if (g.mainBranch) lines.push(`Main branch (usually the target of pull requests): ${g.mainBranch}`);
    if (g.status !== undefined) lines.push('Status:', g.status);
    if (g.recentCommits) lines.push('Recent commits:', g.recentCommits);
  }
  lines.push('</system-reminder>');
  return lines.join('\n');
}
