/**
 * The permission vocabulary shared by tools, the runtime and the permission engine.
 * A decision is a value: `{behavior, reason, suggestions}`.
 *
 * Source: the Claude Code permissions docs (modes, rules), docs/architecture.md.
 */
import type { Effect } from './effects.js';

/** Claude Code's permission behaviors (the Claude Code permissions docs). */
export type PermissionBehavior = 'allow' | 'ask' | 'deny';

/** Claude Code's permission modes (the Claude Code permissions docs), plus `auto` (the classifier decides what would ask). */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions' | 'auto';

export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'dontAsk',
  'bypassPermissions',
  'auto',
];

/** Where a rule came from (the Claude Code permissions docs). */
export type RuleSource =
  | 'managed'
  | 'cliArg'
  | 'localSettings'
  | 'projectSettings'
  | 'userSettings'
  | 'session'
  | 'hook';

/** A parsed permission rule, e.g. `Bash(npm run test:*)`, with where it was written. */
export interface PermissionRule {
  toolName: string;
  /** The text inside the parentheses, or undefined for a bare tool rule. */
  ruleContent?: string;
  behavior: PermissionBehavior;
  source: RuleSource;
  /** Settings file the rule was read from (absent for CLI/session rules). */
  file?: string;
  /** 1-based line of the rule inside `file`, when known. */
  line?: number;
  /** The rule as written, e.g. `Bash(git push:*)`. */
  text: string;
}

/**
 * A security finding from a check: shell analysis (check ids of docs/architecture.md and our additions),
 * path checks, tool-level validation. `behavior` is the least it forces (ask or deny).
 */
export interface Finding {
  /** Stable identifier, e.g. `COMMAND_SUBSTITUTION`, `PROTECTED_PATH_WRITE`, `PATH_OUTSIDE_WORKDIR`. */
  id: string;
  /** Numeric id from docs/architecture.md when the finding is one of the 23 classic checks. */
  checkId?: number;
  message: string;
  behavior: 'ask' | 'deny';
  /** Index into `CallDescription.subcommands` (Bash only). */
  subcommand?: number;
  /**
   * An ask that holds in every mode: bypassPermissions, a hook's allow, sandbox auto-allow and the
   * auto-mode classifier do not lift it (a deny still wins). Set when the analysis could not look at
   * the whole call (it stopped at its deadline or budget, docs/analysis-budget.md).
   */
  everyMode?: boolean;
}

/** One environment assignment in front of a command (`FOO=1 cmd`). */
export interface EnvAssignment {
  name: string;
  value: string;
  /** True for names that change what runs or what it loads (LD_PRELOAD, NODE_OPTIONS, PAGER, GIT_*, PATH, IFS…). */
  dangerous: boolean;
}

/**
 * The repository a `git` sub-command runs against. A repository's configuration can name programs
 * git runs (`core.fsmonitor`, `core.pager`, hooks …) even for read-only sub-commands, so a git call
 * in another repository than the project's own needs a decision. Source: docs/shell-analysis.md
 * "git in another repository".
 */
export interface GitRepositoryInfo {
  /**
   * Absolute directory git discovers its repository from (the working directory after `cd` and
   * `-C`), or the repository named by `--git-dir`/`GIT_DIR`; undefined when it cannot be known
   * statically (then treat it as another repository).
   */
  dir?: string;
  /** What chose `dir`: the working directory, `-C`, `--git-dir` or `GIT_DIR`. */
  via: 'cwd' | '-C' | '--git-dir' | 'GIT_DIR';
  /** The work tree named by `--work-tree`/`GIT_WORK_TREE` (absolute), or `unknown` when it is an expansion. */
  workTree?: string;
}

/**
 * One simple command inside a Bash command line, after splitting (the Claude Code permissions docs, docs/architecture.md).
 * Rules match `text` (wrappers and env prefixes stripped); effects and read-only status are per sub-command.
 */
export interface SubcommandInfo {
  /** Normalised text for rule matching: env assignments and transparent wrappers stripped, words unquoted. */
  text: string;
  /** The sub-command exactly as written in the source. */
  rawText: string;
  /** The words after unquoting (static; dynamic parts left as written). argv[0] is the program. */
  argv: string[];
  /** argv[0] as written after unquoting (may be path-qualified: `/bin/rm`, `./cat`). */
  program: string;
  /** Wrappers stripped in front of the program, outermost first (`timeout`, `nice`, `sudo`, `xargs`…). */
  wrappers: string[];
  envAssignments: EnvAssignment[];
  /** True when the analysis proved this sub-command read-only. */
  readOnly: boolean;
  /** Why it is (or is not) read-only, for explanations. */
  readOnlyReason: string;
  /** True when the command word is not a static string (`$cmd`, `{a,b}`, `$(…)`). */
  dynamicProgram: boolean;
  /** For `git` (also behind wrappers): the repository it runs against. Absent for other programs. */
  gitRepository?: GitRepositoryInfo;
  /** Working directory this sub-command runs in, after `cd` tracking (absolute), or undefined when unknown. */
  cwd?: string;
  /** How this sub-command was reached: top level, or inside `$(…)`, `sh -c`, `eval`, `xargs`, `find -exec`… */
  via: string;
  /** `|`, `&&`, `||`, `;`, `&` or a newline joining it to the previous command at its level (absent for the first). */
  connector?: string;
  /** The shell function whose body holds it (`f() { …; }`), when it is in one. */
  inFunction?: string;
  /** True when it runs in the background (`… &`). */
  background?: boolean;
  /**
   * True when the program and its options are read-only and only its effects are not (a
   * redirection into a file: `echo x > notes.txt`); `readOnly` is then false.
   */
  readOnlyProgram?: boolean;
}

/**
 * What a tool says about one call before it runs (docs/architecture.md): the strings rules match,
 * the effects, the findings. Produced by `Tool.describeCall`; consumed by the permission engine.
 */
export interface CallDescription {
  /**
   * Strings matched against `Tool(specifier)` rules of this tool. For Bash the sub-commands' `text`;
   * for WebFetch `domain:<host>`; for file tools the absolute path. Empty for tools with no specifier.
   */
  ruleContents: string[];
  effects: Effect[];
  findings: Finding[];
  /** Bash only: the split sub-commands. */
  subcommands?: SubcommandInfo[];
  /** True when the whole call is proven read-only (every sub-command, no mutating effect). */
  readOnly: boolean;
  /** One-line summary for explanations and classifiers. */
  summary: string;
  /**
   * Bash only: true when this call will run inside the OS sandbox (set by the tool from
   * `shouldUseSandbox`). With `sandbox.autoAllowBashIfSandboxed` the permission engine then allows
   * what would otherwise ask, except deny rules, protected paths and content-scoped ask rules
   * (the Claude Code sandboxing docs). Absent = not sandboxed.
   */
  sandboxed?: boolean;
}

/** What decided a permission decision (every decision carries one; docs/architecture.md). */
export type DecisionReasonType =
  | 'rule'
  | 'hook'
  | 'protected-path'
  | 'config-path'
  | 'check'
  | 'working-directory'
  | 'unknown-effect'
  | 'mode'
  | 'read-only'
  | 'classifier'
  | 'tool'
  | 'sandbox'
  | 'default'
  | 'settings'
  | 'error';

export interface DecisionReason {
  type: DecisionReasonType;
  /** Sentence a person (and the model) can read. */
  message: string;
  rule?: PermissionRule;
  /** Finding id (check) that fired. */
  checkId?: string;
  path?: string;
  effect?: Effect;
  mode?: PermissionMode;
  hook?: string;
}

/** A suggested rule for "always allow", and where accepting it would persist it. */
export interface PermissionSuggestion {
  rule: string;
  destination: 'localSettings' | 'projectSettings' | 'userSettings' | 'session';
}

export type PermissionDecision =
  | { behavior: 'allow'; reason: DecisionReason; updatedInput?: Record<string, unknown> }
  | {
      behavior: 'ask';
      reason: DecisionReason;
      suggestions: PermissionSuggestion[];
      /** HIGH risk from the classifier: the host must confirm explicitly, never auto-accept. */
      forceConfirmation?: boolean;
      updatedInput?: Record<string, unknown>;
    }
  | { behavior: 'deny'; reason: DecisionReason };

/** A tool's own verdict before the general engine (the Claude Code tools reference step 4). `passthrough` = no opinion. */
export type ToolPermissionResult =
  | { behavior: 'passthrough' }
  | { behavior: 'allow'; reason: string; updatedInput?: Record<string, unknown> }
  | { behavior: 'ask'; reason: string }
  | { behavior: 'deny'; reason: string };

/** The host's answer to an `ask` (the Claude Code permissions docs). */
export type HostPermissionAnswer =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; persistSuggestion?: PermissionSuggestion }
  | { behavior: 'deny'; message: string };

/**
 * The permission engine as the runtime sees it (docs/architecture.md): data in, decision out.
 * It never prompts and never executes anything except PreToolUse hooks.
 */
export type PermissionDecider = (request: PermissionRequest) => Promise<PermissionDecision>;

export interface PermissionRequest {
  toolName: string;
  /** The parsed (schema-valid) input. */
  input: Record<string, unknown>;
  description: CallDescription;
  /** The tool's own verdict (`Tool.checkPermissions`). */
  toolResult: ToolPermissionResult;
  /** True when the tool declared this input read-only (`Tool.isReadOnly`). */
  isReadOnly: boolean;
  /**
   * True for a tool adapted from an MCP server (`Tool.isMcp`; for a host's call, the `mcp__` name).
   * MCP tools are never allowed as read-only on their own word. Absent = decided from the name.
   */
  isMcp?: boolean;
  /** Permission-relevant session facts. */
  cwd: string;
  projectRoot: string;
  additionalDirectories: string[];
  mode: PermissionMode;
  sessionId: string;
  toolUseId: string;
  /** Compact text for the auto-mode classifier (`Tool.toAutoClassifierInput`). */
  classifierInput: string;
  /**
   * The input PreToolUse hooks see as `tool_input` when the tool adds fields to it
   * (`Tool.observableInput`: ExitPlanMode's `plan`, `planFilePath`); absent → `input`.
   */
  hookInput?: Record<string, unknown>;
}
