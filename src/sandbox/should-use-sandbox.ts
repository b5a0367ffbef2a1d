/**
 * `shouldUseSandbox` (docs/architecture.md; the Claude Code sandboxing docs): will this Bash call run inside
 * the OS sandbox? Pure: the call, the effective settings, the shell split of the command and the
 * probe result in; a decision with its reason out.
 *
 * Order:
 * 1. `sandbox.enabled` false → unsandboxed (`disabled`).
 * 2. `dangerouslyDisableSandbox: true` and `allowUnsandboxedCommands` → unsandboxed
 *    (`dangerously-disabled`; goes through the normal permission prompt). With
 *    `allowUnsandboxedCommands: false` the flag is ignored ("strict sandbox mode").
 * 3. Excluded: only when EVERY sub-command matches an `excludedCommands` pattern, the split is
 *    complete, and the command has no `cd`, no command/process substitution or nested shell, and
 *    no redirect other than an fd duplication (`2>&1`) (the Claude Code sandboxing docs, the stricter TYPES rule) →
 *    unsandboxed (`excluded`; normal permission flow).
 * 4. Sandbox unavailable → unsandboxed (`unavailable`) when `allowUnsandboxedCommands` and not
 *    `failIfUnavailable`; otherwise refused.
 * 5. Otherwise sandboxed.
 * Only `sandboxed` calls may be auto-approved by `autoAllowBashIfSandboxed`.
 */
import type { SandboxSettings } from '../core/sandbox-settings.js';
import type { SubcommandInfo } from '../core/permission-types.js';

/** The decision. `permissionNote` tells the permission engine how to treat the call. */
export type SandboxDecision =
  | { mode: 'sandboxed'; reason: string }
  | {
      mode: 'unsandboxed';
      why: 'disabled' | 'dangerously-disabled' | 'excluded' | 'unavailable';
      reason: string;
    }
  | { mode: 'refused'; reason: string };

/** The call as the decision needs it. */
export interface SandboxCallInput {
  command: string;
  dangerouslyDisableSandbox?: boolean;
}

/**
 * Matches one sub-command's text against a Bash-rule pattern (the Claude Code permissions docs grammar, the subset
 * `excludedCommands` uses): `cmd:*` (legacy prefix: `cmd` or `cmd …`), `*` wildcards (`docker *`
 * also matches bare `docker`; a space before `*` keeps the word boundary), or exact text.
 */
export function matchesCommandPattern(pattern: string, text: string): boolean {
  const p = pattern.trim();
  const t = text.trim();
  if (p.endsWith(':*')) {
    const prefix = p.slice(0, -2);
    return t === prefix || t.startsWith(`${prefix} `);
  }
  if (!p.includes('*')) return t === p;
  if (p.endsWith(' *') && t === p.slice(0, -2)) return true;
  const regex = new RegExp(
    `^${p
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  return regex.test(t);
}

const TOP_LEVEL_VIAS = new Set(['top', 'pipeline']);

/** The part of the shell analysis the decision needs (`CommandAnalysis` from `src/shell` fits). */
export interface CommandShape {
  /** False when the command could not be fully parsed. */
  parseOk: boolean;
  subcommands: readonly SubcommandInfo[];
}

/** fd duplications and closes (`2>&1`, `>&2`, `3<&0`, `2>&-`) are not file redirects. */
const FD_DUPLICATION = /\d*[<>]&(?:\d+|-)/g;

/** Why a command cannot be excluded, or undefined when every part matches a pattern. */
export function exclusionBlocker(shape: CommandShape, patterns: readonly string[]): string | undefined {
  if (!shape.parseOk) return 'the command could not be fully parsed';
  if (shape.subcommands.length === 0) return 'the command is empty';
  for (const c of shape.subcommands) {
    if (!TOP_LEVEL_VIAS.has(c.via)) return `it contains a nested command (${c.via})`;
    if (c.dynamicProgram || c.program === '') return 'a command name is not static';
    if (c.program === 'cd') return 'it changes directory (cd)';
    // Conservative: any remaining < or > (a redirect, a heredoc, a quoted ">" too) keeps it sandboxed.
    if (/[<>]/.test(c.rawText.replace(FD_DUPLICATION, ''))) return 'it redirects input or output';
    if (!patterns.some((p) => matchesCommandPattern(p, c.text)))
      return `\`${c.text}\` is not in sandbox.excludedCommands`;
  }
  return undefined;
}

/** Inputs of {@link shouldUseSandbox}. */
export interface ShouldUseSandboxOptions {
  settings: SandboxSettings;
  /** The shell analysis of the command (only needed when `excludedCommands` is not empty). */
  analysis?: CommandShape;
  /** Probe result; undefined = not probed yet (treated as available; wrap probes before running). */
  availability?: { available: boolean; reason: string };
}

/** Decides (see the module comment). Never throws. */
export function shouldUseSandbox(input: SandboxCallInput, options: ShouldUseSandboxOptions): SandboxDecision {
  const { settings } = options;
  if (!settings.enabled)
    return { mode: 'unsandboxed', why: 'disabled', reason: 'the sandbox is not enabled (sandbox.enabled)' };
  if (input.dangerouslyDisableSandbox && settings.allowUnsandboxedCommands) {
    return {
      mode: 'unsandboxed',
      why: 'dangerously-disabled',
      reason:
        'dangerouslyDisableSandbox was requested and sandbox.allowUnsandboxedCommands permits it; the call needs normal permission',
    };
  }
  if (settings.excludedCommands.length > 0) {
    const blocker = options.analysis
      ? exclusionBlocker(options.analysis, settings.excludedCommands)
      : 'the command was not analysed';
    if (blocker === undefined) {
      return {
        mode: 'unsandboxed',
        why: 'excluded',
        reason: 'every part of the command is in sandbox.excludedCommands',
      };
    }
  }
  const availability = options.availability;
  if (availability && !availability.available) {
    if (settings.allowUnsandboxedCommands && !settings.failIfUnavailable) {
      return {
        mode: 'unsandboxed',
        why: 'unavailable',
        reason: `the sandbox is unavailable (${availability.reason}); running unsandboxed because sandbox.allowUnsandboxedCommands permits it`,
      };
    }
    return {
      mode: 'refused',
      reason: `The sandbox is unavailable (${availability.reason}) and the settings do not allow unsandboxed commands (${settings.failIfUnavailable ? 'sandbox.failIfUnavailable is true' : 'sandbox.allowUnsandboxedCommands is false'}). The command was not run. Ask the user to install bubblewrap or change the sandbox settings.`,
    };
  }
  return {
    mode: 'sandboxed',
    reason: input.dangerouslyDisableSandbox
      ? 'sandboxed: dangerouslyDisableSandbox is ignored because sandbox.allowUnsandboxedCommands is false'
      : 'sandboxed',
  };
}
