/**
 * Where a session's transcript lives: `<gantryHome>/projects/<cwd-slug>/<sessionId>.jsonl`, the
 * layout Claude Code uses under `~/.claude/projects` (Claude Code documentation, "Manage sessions"),
 * but under Gantry's own home (`~/.gantry`) — Gantry never writes into `~/.claude`.
 *
 * The slug is the absolute working directory with every character outside `[A-Za-z0-9]` turned
 * into `-` (`/home/u/my.app` → `-home-u-my-app`); a slug longer than 200 characters keeps its
 * first 200 and gets `-` plus 8 hex characters of its SHA-256, so long paths stay distinct.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export const MAX_SLUG_CHARS = 200;

export function projectSlug(cwd: string): string {
  const slug = path.resolve(cwd).replace(/[^A-Za-z0-9]/g, '-');
  if (slug.length <= MAX_SLUG_CHARS) return slug;
  const hash = createHash('sha256').update(slug).digest('hex').slice(0, 8);
  return `${slug.slice(0, MAX_SLUG_CHARS)}-${hash}`;
}

/** `~/.gantry` (with `home` overridable for tests). */
export function defaultGantryHome(home: string = homedir()): string {
  return path.join(home, '.gantry');
}

/** The directory holding every transcript of sessions started in `cwd`. */
export function projectTranscriptDir(gantryHome: string, cwd: string): string {
  return path.join(gantryHome, 'projects', projectSlug(cwd));
}

export function transcriptPathFor(gantryHome: string, cwd: string, sessionId: string): string {
  return path.join(projectTranscriptDir(gantryHome, cwd), `${sessionId}.jsonl`);
}

/** The most recently modified transcript of `cwd`'s project (`--continue`), or undefined. */
export function latestTranscript(gantryHome: string, cwd: string): string | undefined {
  const dir = projectTranscriptDir(gantryHome, cwd);
  let best: { file: string; mtimeMs: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const file = path.join(dir, name);
    try {
      const s = statSync(file);
      if (s.isFile() && (!best || s.mtimeMs > best.mtimeMs)) best = { file, mtimeMs: s.mtimeMs };
    } catch {
      // Vanished while listing.
    }
  }
  return best?.file;
}
