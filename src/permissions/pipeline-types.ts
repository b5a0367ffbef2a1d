/**
 * The pipeline's vocabulary: its input, its result, the steps that can decide, and the two
 * built-in tool/program lists modes use. See pipeline.ts for the order.
 */
import type { DestructiveFloorLevel } from '../core/destructive-floor/index.js';
import type { PathResolver } from '../core/paths.js';
import { TOOL_TRAITS } from '../core/tool-traits.js';
import type {
  DecisionReason,
  PermissionDecision,
  PermissionMode,
  PermissionRequest,
} from '../core/permission-types.js';
import type { CallView } from './call-view.js';
import type { RepositoryRootOf } from './git-repository.js';
import type { HookVerdict } from './hooks/types.js';
import type { RuleSet } from './rules/rule-set.js';
import type { WorkingDirectories } from './working-dirs.js';

/** Bash programs acceptEdits allows on in-project paths (docs/security-round-2.md). */
export const DEFAULT_ACCEPT_EDITS_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'cp', 'mv']);

/**
 * Tool names (and aliases) plan mode lets through to the normal flow although they are not
 * read-only: the `planModePass` rows of the trait table (core/tool-traits.ts), listed for callers
 * that want the set; the pipeline reads the trait itself.
 */
export const PLAN_MODE_PASS: ReadonlySet<string> = new Set(
  [...TOOL_TRAITS.values()].filter((t) => t.planModePass).flatMap((t) => [t.name, ...t.aliases]),
);

export interface PipelineInput {
  request: PermissionRequest;
  rules: RuleSet;
  /** Effective mode (after disable* settings). */
  mode: PermissionMode;
  workingDirs: WorkingDirectories;
  home: string;
  resolver: PathResolver;
  /** This Bash call will run sandboxed and settings auto-allow sandboxed commands (the Claude Code sandboxing docs). */
  sandboxAutoAllow: boolean;
  hook?: HookVerdict;
  acceptEditsCommands?: ReadonlySet<string>;
  /** Directories that may be read (not written) without asking: the session's spill directory. */
  readableDirs?: WorkingDirectories;
  /** The destructive floor's level and the lower settings that were ignored (default standard). */
  floor?: { value: DestructiveFloorLevel; ignored: readonly string[] };
  /** Credential-file reads: ask (default) or allow. */
  secretReads?: 'ask' | 'allow';
  /**
   * The session's plan file (absolute): in plan mode, writing it is the one change allowed. Set by
   * the host's plan-mode tools (`PermissionEngineOptions.planFile`).
   */
  planFile?: string;
  /** Which repository a directory belongs to (git in another repository asks); absent: not checked. */
  repositoryRoot?: RepositoryRootOf;
}

export type PipelineStep =
  | 'hook'
  | 'deny-rule'
  | 'tool'
  | 'protected-path'
  | 'config-path'
  | 'floor'
  | 'secret'
  | 'check'
  | 'ask-rule'
  | 'mode'
  | 'sandbox'
  | 'allow-rule'
  | 'read-only'
  | 'default';

export interface PipelineResult {
  decision: PermissionDecision;
  step: PipelineStep;
  /** An ask from step 4 or 8: auto mode hands it to the classifier, suggestions may apply. */
  classifierEligible: boolean;
  view: CallView;
  /** One line per step that looked at the call, for `gantry check`. */
  trace: string[];
}

export const allow = (reason: DecisionReason): PermissionDecision => ({ behavior: 'allow', reason });
export const ask = (reason: DecisionReason): PermissionDecision => ({
  behavior: 'ask',
  reason,
  suggestions: [],
});
export const deny = (reason: DecisionReason): PermissionDecision => ({ behavior: 'deny', reason });
