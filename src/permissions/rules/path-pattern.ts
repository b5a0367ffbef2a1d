/**
 * Read/Edit path patterns, gitignore style (the Claude Code permissions docs; docs/security-round-2.md).
 *
 * Anchors:
 * | pattern        | anchored at                                                           |
 * |----------------|-----------------------------------------------------------------------|
 * | `//abs/path`   | filesystem root                                                       |
 * | `~/path`       | home directory                                                        |
 * | `/path`        | the rule source's root (`anchors.root`: project root for project and  |
 * |                | local settings, `~/.claude` for user settings, the file's directory   |
 * |                | for `--settings`, `/` for the security corpus whose `/x` is absolute)  |
 * | `./path`, `a/b`| the original working directory                                        |
 * | `name` (no `/`)| that name at any depth (`Read(.env)` ≡ `Read(**​/.env)`)               |
 *
 * `*` stays within a segment, `**` spans segments, dot-files match. As in gitignore, a pattern that
 * matches a directory also matches everything below it. Single-segment directory patterns
 * (`src/**`, `src/`) match `<cwd>/src` in allow rules but a `src` directory at any depth in deny and
 * ask rules (the Claude Code permissions docs "Depth nuance").
 */
import picomatch from 'picomatch';
import type { PermissionBehavior } from '../../core/permission-types.js';

export interface PathAnchors {
  home: string;
  /** Original working directory (project root for a session). */
  cwd: string;
  /** What a single leading `/` means for this rule's source. */
  root: string;
}

export interface CompiledPathPattern {
  /** Absolute glob the pattern was anchored to (for explanations). */
  glob: string;
  /** True when an absolute, normalised path (or one of its ancestors) matches. */
  test(absPath: string): boolean;
}

const GLOB_SPECIAL = /[*?[\]{}()!+@\\]/g;
const escapeGlob = (s: string): string => s.replace(GLOB_SPECIAL, '\\$&');
const join = (base: string, rest: string): string =>
  `${escapeGlob(base).replace(/\/+$/, '')}/${rest.replace(/^\/+/, '')}`;

/** Turns a rule pattern into an absolute glob (see the anchor table). */
export function anchorPathPattern(
  pattern: string,
  behavior: PermissionBehavior,
  anchors: PathAnchors,
): string {
  let p = pattern.trim().replace(/\\(?![*?[\]{}()!+@\\])/g, '/');
  // Windows drive paths normalise to POSIX (`C:\x` → `/c/x`).
  const drive = /^([A-Za-z]):\//.exec(p);
  if (drive) p = `//${(drive[1] as string).toLowerCase()}/${p.slice(3)}`;
  if (p.endsWith('/')) p = `${p}**`;
  if (p === '**' || p === '/**' || p === '//**') return '/**';
  if (p.startsWith('//')) return `/${p.replace(/^\/+/, '')}`;
  if (p === '~') return escapeGlob(anchors.home);
  if (p.startsWith('~/')) return join(anchors.home, p.slice(2));
  if (p.startsWith('/')) return join(anchors.root, p.slice(1));
  if (p.startsWith('./')) return join(anchors.cwd, p.slice(2));
  if (!p.includes('/')) return `/**/${p}`;
  const singleDir = /^([^/]+)\/\*\*$/.exec(p);
  if (singleDir && behavior !== 'allow') return `/**/${singleDir[1]}/**`;
  return join(anchors.cwd, p);
}

/** Compiles a pattern; the returned `test` also matches paths below a matching directory. */
export function compilePathPattern(
  pattern: string,
  behavior: PermissionBehavior,
  anchors: PathAnchors,
): CompiledPathPattern {
  const glob = anchorPathPattern(pattern, behavior, anchors).replace(/\/{2,}/g, '/');
  const opts = { dot: true };
  const exact = picomatch(glob, opts);
  const below = glob.endsWith('/**') ? undefined : picomatch(`${glob}/**`, opts);
  return { glob, test: (abs: string) => exact(abs) || (below ? below(abs) : false) };
}
