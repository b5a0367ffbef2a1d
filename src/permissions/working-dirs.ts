/**
 * Working directories (the Claude Code permissions docs; docs/security-round-2.md): the project root
 * plus additional directories (`--add-dir`, `additionalDirectories`). Containment is decided on
 * resolved paths (symlinks followed on both sides) and is separator-aware, so
 * `/home/user/project-secrets` is outside `/home/user/project`.
 *
 * Device paths that are not files are exempt: `/dev/null`, `/dev/stdin`, `/dev/stdout`,
 * `/dev/stderr`, `/dev/fd/0-2`, `/dev/tty`; reads of `/dev/zero`, `/dev/random`, `/dev/urandom` too.
 */
import path from 'node:path';
import { isPathInside, type PathResolver } from '../core/paths.js';

const DEVICE_EXEMPT = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty']);
const DEVICE_READ_EXEMPT = new Set(['/dev/zero', '/dev/random', '/dev/urandom']);

/** True for device paths exempt from the working-directory check (see module doc). */
export function isExemptDevicePath(absPath: string, kind: 'read' | 'write'): boolean {
  if (DEVICE_EXEMPT.has(absPath) || /^\/dev\/fd\/[0-2]$/.test(absPath)) return true;
  return kind === 'read' && DEVICE_READ_EXEMPT.has(absPath);
}

export class WorkingDirectories {
  /** The directories as given (absolute, normalised). */
  readonly dirs: readonly string[];
  /** The same, symlinks resolved. */
  readonly resolved: readonly string[];

  constructor(dirs: readonly string[], resolver: PathResolver) {
    this.dirs = [...new Set(dirs.map((d) => path.resolve(d)))];
    this.resolved = [...new Set(this.dirs.map((d) => resolver.realpath(d)))];
  }

  /** True when the resolved path lies inside a working directory (resolved or as given). */
  contains(resolvedPath: string): boolean {
    for (const d of this.resolved) if (isPathInside(resolvedPath, d)) return true;
    return false;
  }

  /** For messages: the directories as a readable list. */
  describe(): string {
    return this.dirs.join(', ');
  }
}
