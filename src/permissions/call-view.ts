/**
 * A call prepared for the pipeline: its effects with both the lexical and the resolved path
 * (the Claude Code permissions docs "Symlinks: both the link path and its resolved target are checked; allow needs both
 * to match; deny applies if either matches"), computed once per decision.
 */
import path from 'node:path';
import type { Effect } from '../core/effects.js';
import { isNormalAbsolute, type PathResolver } from '../core/paths.js';
import { isMcpToolName } from '../core/mcp-names.js';
import type { CallDescription, SubcommandInfo } from '../core/permission-types.js';
import { type ToolTraits, traitsFor } from '../core/tool-traits.js';
import { hasGlobChars } from './rules/glob-overlap.js';

export interface FileEffect {
  effect: Effect;
  /** Index in `description.effects`. */
  index: number;
  /** `read` for reads (and execs of a path), `write` for writes and deletes. */
  access: 'read' | 'write';
  /** Absolute path as the call names it (before symlink resolution). */
  lexical: string;
  /** Absolute path after symlink resolution. */
  resolved: string;
  /** True for an exec of a path-qualified program: checked by rules, not by the working-directory limit. */
  fromExec: boolean;
}

/** A file effect whose target is an absolute glob the analysis could not expand (known or unknown). */
export interface GlobEffect {
  effect: Effect;
  access: 'read' | 'write';
  glob: string;
}

export interface CallView {
  toolName: string;
  /** The tool's row in the trait table (fail-closed defaults for unknown tools). */
  traits: ToolTraits;
  input: Record<string, unknown>;
  description: CallDescription;
  /** A shell tool (`ruleKind: 'shell'`): its description carries sub-commands. */
  isShell: boolean;
  /** An MCP tool (the request says so, or the name is an `mcp__` name): never allowed as read-only on its own word. */
  isMcp: boolean;
  subcommands: readonly SubcommandInfo[];
  /** Known file effects (read, write, delete; exec of a path counts as a read for rules). */
  files: FileEffect[];
  /** Effects whose target could not be resolved statically. */
  unknown: Effect[];
  /** File effects whose target is an unexpanded absolute glob (deny/ask rules test overlap). */
  globs: GlobEffect[];
  /** Known network effects. */
  network: Effect[];
}

const isPathLike = (t: string): boolean => t.startsWith('/') || t.startsWith('./') || t.startsWith('../');

/** Prepares a call: classifies effects and resolves file targets through `resolver`. */
export function viewCall(
  toolName: string,
  input: Record<string, unknown>,
  description: CallDescription,
  opts: { cwd: string; resolver: PathResolver; isMcp?: boolean },
): CallView {
  const files: FileEffect[] = [];
  const unknown: Effect[] = [];
  const network: Effect[] = [];
  const globs: GlobEffect[] = [];
  description.effects.forEach((effect, index) => {
    const fileKind = effect.kind === 'read' || effect.kind === 'write' || effect.kind === 'delete';
    if (fileKind && effect.target.startsWith('/') && hasGlobChars(effect.target))
      globs.push({
        effect,
        access: effect.kind === 'read' ? 'read' : 'write',
        glob: path.posix.normalize(effect.target),
      });
    if (effect.certainty === 'unknown') {
      unknown.push(effect);
      return;
    }
    if (effect.kind === 'network') {
      network.push(effect);
      return;
    }
    const execPath = effect.kind === 'exec' && isPathLike(effect.target);
    if (!fileKind && !execPath) return;
    const t = effect.target;
    const lexical = isNormalAbsolute(t) ? t : path.resolve(opts.cwd, t);
    files.push({
      effect,
      index,
      access: effect.kind === 'write' || effect.kind === 'delete' ? 'write' : 'read',
      lexical,
      resolved: opts.resolver.realpath(lexical),
      fromExec: execPath,
    });
  });
  const traits = traitsFor(toolName);
  return {
    toolName,
    traits,
    input,
    description,
    isShell: traits.ruleKind === 'shell',
    isMcp: opts.isMcp === true || isMcpToolName(toolName),
    subcommands: description.subcommands ?? [],
    files,
    unknown,
    globs,
    network,
  };
}
