/**
 * Path resolution for the file tools (the Claude Code tools reference): `~` expansion,
 * relative paths against the session's cwd (`context.getAppState().cwd`), then every symlink on
 * the way resolved, so permission decisions and reads/writes all see the same real target.
 */
import type { PathResolver, ToolUseContext } from '../../core/index.js';
import { expandPath, fsPathResolver } from '../../core/index.js';
import { permittedTarget } from './checked-open.js';

/** A tool's path field after resolution. */
export interface ResolvedFilePath {
  /** The path as the model wrote it. */
  requested: string;
  /** Absolute and normalised (`~`, `..`, relative resolved), symlinks NOT resolved. */
  absolute: string;
  /** `absolute` with every symlink resolved (for a missing file: its deepest existing ancestor resolved). */
  resolved: string;
  /** True when `resolved` differs from `absolute` because a symlink was followed. */
  viaSymlink: boolean;
}

/**
 * Resolves a file tool's path field against the session cwd.
 * @param resolver - injectable symlink resolver (tests); the real filesystem by default.
 * @throws Never: a path that cannot be resolved further is returned as far as it resolved.
 */
export function resolveFilePath(
  requested: string,
  context: Pick<ToolUseContext, 'getAppState'>,
  resolver: PathResolver = fsPathResolver,
): ResolvedFilePath {
  const absolute = expandPath(requested, { cwd: context.getAppState().cwd });
  const resolved = resolver.realpath(absolute);
  return { requested, absolute, resolved, viaSymlink: resolved !== absolute };
}

/**
 * resolveFilePath for a call bound to its permission decision (`context.permittedCall`). When the
 * absolute path is itself the target the decision named (no symlink on the way when it was
 * checked), it is not resolved again: the verified open (checked-open.ts: `O_NOFOLLOW`, then the
 * descriptor's real path must be that target) refuses it if a component has become a symlink
 * since, which is what resolving again would have caught. Otherwise as resolveFilePath.
 */
export function resolveCallPath(
  requested: string,
  context: Pick<ToolUseContext, 'getAppState' | 'permittedCall'>,
): ResolvedFilePath {
  const absolute = expandPath(requested, { cwd: context.getAppState().cwd });
  if (permittedTarget(context) === absolute)
    return { requested, absolute, resolved: absolute, viaSymlink: false };
  return resolveFilePath(requested, context);
}
