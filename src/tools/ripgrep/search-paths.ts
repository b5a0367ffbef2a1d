/**
 * Path and option handling shared by Glob and Grep (the Claude Code tools reference):
 *
 * - the search root: `~` expanded, relative paths resolved against the session cwd
 *   (`context.getAppState().cwd`), symlinks resolved (core/paths.ts), absent `path` = the cwd; the
 *   literal strings "undefined" / "null" (which models sometimes send for an absent path, the Claude Code tools reference)
 *   count as absent unless such a path really exists;
 * - model-facing paths: relative to the (resolved) cwd when inside it, else absolute — or always
 *   absolute with `compat.searchPathStyle = 'absolute'` (what Claude Code 2.1.38 transcripts show);
 * - version-sensitive switches read from `context.options.compat` with a typed default.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { type DescribeWorld, describeWorldOf } from '../../core/call-describer.js';
import type { ToolUseContext } from '../../core/context.js';
import { knownEffect } from '../../core/effects.js';
import { displayPath, expandPath } from '../../core/paths.js';
import type { CallDescription } from '../../core/permission-types.js';

/** The session cwd with symlinks resolved (so paths under it display relative). */
export function resolvedCwd(context: ToolUseContext): string {
  const cwd = context.getAppState().cwd;
  try {
    return realpathSync.native(cwd);
  } catch {
    return cwd;
  }
}

/** True for an absent `path`: undefined, empty, or the literal "undefined"/"null" when no such path exists. */
export function isAbsentPath(input: string | undefined, cwd: string): boolean {
  if (input === undefined || input.trim() === '') return true;
  if (input === 'undefined' || input === 'null') return !existsSync(path.resolve(cwd, input));
  return false;
}

/** Absolute, symlink-resolved path of a tool's `path` input (the cwd when absent). */
export function resolveSearchPath(input: string | undefined, context: ToolUseContext): string {
  return searchRootIn(input, describeWorldOf(context));
}

/** Absolute path of a tool's `path` input as named (`~` and cwd-relative resolved, symlinks NOT resolved). */
export function searchPathAsNamed(input: string | undefined, context: ToolUseContext): string {
  return searchRootAsNamedIn(input, describeWorldOf(context));
}

/** {@link resolveSearchPath} in a describe world (`world.resolver` resolves the symlinks). */
export function searchRootIn(input: string | undefined, world: DescribeWorld): string {
  return world.resolver.realpath(searchRootAsNamedIn(input, world));
}

/** {@link searchPathAsNamed} in a describe world. */
export function searchRootAsNamedIn(input: string | undefined, world: DescribeWorld): string {
  return isAbsentPath(input, world.cwd) ? path.resolve(world.cwd) : expandPath(input as string, world);
}

/**
 * The permission description of a search (docs/architecture.md): the symlink-resolved root is the rule
 * target and the read effect; when the root was reached through a symlink, the root as named is a
 * second target and effect, so a rule written against the link's own name matches too (as the other
 * file tools do, file-io/describe-call.ts).
 */
export function describeSearchRoot(
  toolName: string,
  pattern: string,
  root: string,
  named: string,
): CallDescription {
  const viaLink = named !== root;
  return {
    ruleContents: viaLink ? [root, named] : [root],
    effects: [
      knownEffect(
        'read',
        root,
        'tool-input',
        viaLink ? `${toolName} search root via symlink ${named}` : `${toolName} search root`,
      ),
      ...(viaLink
        ? [knownEffect('read', named, 'tool-input', `${toolName} search root as named (a symlink)`)]
        : []),
    ],
    findings: [],
    readOnly: true,
    summary: `${toolName} ${JSON.stringify(pattern)} in ${root}`,
  };
}

/** What is at a path: a directory, a file, something else, or nothing. */
export function pathKind(abs: string): 'directory' | 'file' | 'other' | 'missing' {
  try {
    const s = statSync(abs);
    if (s.isDirectory()) return 'directory';
    if (s.isFile()) return 'file';
    return 'other';
  } catch {
    return 'missing';
  }
}

/** How result paths are shown to the model. */
export type SearchPathStyle = 'relative' | 'absolute';

/** Formats an absolute path for the model under `style` (relative to `cwd` when inside it). */
export function formatResultPath(abs: string, cwd: string, style: SearchPathStyle): string {
  return style === 'absolute' ? abs : displayPath(abs, cwd);
}

/** `context.options.compat[key]` when it is one of `allowed`, else `fallback`. */
export function compatChoice<T extends string | number | boolean>(
  context: ToolUseContext,
  key: string,
  allowed: readonly T[] | ((value: unknown) => value is T),
  fallback: T,
): T {
  const value = context.options?.compat?.[key];
  if (typeof allowed === 'function') return allowed(value) ? value : fallback;
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;
}

/** Type guard for a non-negative integer compat value. */
export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** True when the string holds a NUL character (rejected in paths and patterns, the Claude Code tools reference). */
export function hasNullByte(value: string | undefined): boolean {
  return value !== undefined && value.includes('\0');
}
