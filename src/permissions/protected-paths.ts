/**
 * Protected paths in the decision pipeline (docs/security-round-2.md "Protected
 * files" and "Agent and VCS config"; docs/architecture.md). The list itself lives in
 * `core/protected-paths.ts`, shared with the OS sandbox so both enforce the same names.
 *
 * Evaluated over the *write and delete effects* of a call, after symlink resolution (both the path
 * as named and the resolved target), whichever tool or shell construct performs them:
 * - class `deny` (shell start-up files, `.gitconfig`, registry and credential files, `.env` and its
 *   non-template variants, `credentials`, `authorized_keys`, anything in `.ssh/`, `.gnupg/`, `.aws/`,
 *   `.kube/` …) → deny in every mode, bypassPermissions included;
 * - class `ask` (agent and VCS configuration: `.claude/`, `.gantry/`, `.git/`, `.vscode/`, `.idea/`,
 *   `.husky/`, `.mcp.json`, `.envrc`, hook-manager configs …) → ask in every mode, never auto-allowed.
 *
 * Corpus look-alikes are not protected: `.env.example` (and `.sample`, `.template`, `.dist`,
 * `.defaults`, `.schema`), `.bashrc.bak`, `credentials.example.json`, `docs/bashrc-notes.md`, `src/env.ts`.
 * Reads are never blocked here (working-directory limits and Read deny rules still apply).
 */
import path from 'node:path';
import { matchProtectedPath as matchCoreProtectedPath } from '../core/protected-paths.js';

export interface ProtectedPathMatch {
  /** `protected` → deny; `config` → ask. */
  kind: 'protected' | 'config';
  path: string;
  /** What made it match, for explanations (e.g. `.bashrc: shell start-up file …`). */
  label: string;
}

const cache = new Map<string, ProtectedPathMatch | null>();
const CACHE_MAX = 4096;

/** Classifies a write target (absolute, normalised); undefined when it is not protected. Memoised. */
export function matchProtectedWrite(absPath: string): ProtectedPathMatch | undefined {
  const hit = cache.get(absPath);
  if (hit !== undefined) return hit ?? undefined;
  const m = matchCoreProtectedPath(absPath);
  const out: ProtectedPathMatch | null = m
    ? {
        kind: m.entry.class === 'deny' ? 'protected' : 'config',
        path: absPath,
        label: `${m.entry.kind === 'dir' ? `inside ${m.entry.name}/` : m.entry.name} — ${m.entry.why}`,
      }
    : null;
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(absPath, out);
  return out ?? undefined;
}

/**
 * Paths whose removal always asks, bypassPermissions included (the Claude Code permissions docs "critical-path
 * removals"): `/`, every top-level directory, home and its ancestors, each working directory and
 * its ancestors.
 */
export function isCriticalRemovalTarget(
  absPath: string,
  home: string,
  workingDirs: readonly string[],
): boolean {
  const p = path.resolve(absPath);
  if (p === '/' || path.dirname(p) === '/') return true;
  for (const anchor of [home, ...workingDirs]) {
    let a = path.resolve(anchor);
    for (;;) {
      if (a === p) return true;
      const up = path.dirname(a);
      if (up === a) break;
      a = up;
    }
  }
  return false;
}
