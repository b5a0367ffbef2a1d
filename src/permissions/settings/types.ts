/**
 * The settings shapes the permission engine reads (permissions, hooks and sandbox, as the Claude Code settings, hooks and sandboxing docs describe them),
 * and the merged result it hands to the engine, the hook runner and the sandbox.
 */
import type { PermissionMode, RuleSource } from '../../core/permission-types.js';
import type { SandboxSettings } from '../../core/sandbox-settings.js';
import type { DestructiveFloorLevel } from '../../core/destructive-floor/index.js';
import type { RuleSet } from '../rules/rule-set.js';

/** A problem found while loading settings; always carries the file and, when known, the line. */
export interface SettingsProblem {
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  line?: number;
  /** The rule text, when the problem is about one rule. */
  rule?: string;
  /**
   * Set when the problem lost something that could restrict decisions (a file that does not parse,
   * a deny list of the wrong type, a mode that is not a mode): the decisions it could affect ask
   * until the file is fixed (see {@link BrokenSetting}). Absent for losses that only narrow (a
   * broken allow list) and for notes.
   */
  failClosed?: 'all' | 'sandbox';
}

/**
 * A settings file that is broken in a way that may have dropped restrictions. While any is loaded,
 * the engine asks (denies where nobody can be asked) for every call its lost part could have
 * restricted, naming the file, the line and the error.
 *
 * - `all`: the file (or its `permissions`, a deny/ask list, the mode, a hook) could not be read, so
 *   any call could have been denied or asked;
 * - `sandbox`: its `sandbox` settings were partly dropped, so the sandbox may be weaker than the
 *   file says: sandboxed commands are not auto-allowed;
 * - `{ toolName }`: one deny or ask rule is malformed; it could only have covered that tool (and
 *   the tool's aliases).
 */
export interface BrokenSetting {
  file: string;
  line?: number;
  message: string;
  source: RuleSource;
  scope: 'all' | 'sandbox' | { toolName: string };
}

/** One command hook of a `hooks.<Event>[].hooks` list (the Claude Code hooks reference; only `type: command` runs here). */
export interface CommandHookConfig {
  type: 'command';
  command: string;
  /** Seconds (the Claude Code hooks reference). Undefined → the runner's default. */
  timeout?: number;
}

/** The hook events settings may configure command hooks for (Claude Code's event names). */
export const HOOK_EVENT_NAMES = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'TaskCreated',
  'TaskCompleted',
  'WorktreeCreate',
  'WorktreeRemove',
] as const;
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** One `hooks.<Event>[]` entry with where it came from. */
export interface HookMatcherConfig {
  /** Tool-name matcher (the Claude Code hooks reference); undefined/empty/`*` = every tool. */
  matcher?: string;
  hooks: CommandHookConfig[];
  source: RuleSource;
  file?: string;
  line?: number;
}

/** Where one settings file sits in the precedence order, and how its relative paths anchor. */
export interface SettingsSourceSpec {
  source: RuleSource;
  file: string;
  /** `claude` for Claude Code's own files (read as they are), `gantry` for Gantry's. */
  flavor: 'claude' | 'gantry';
  /** What a single leading `/` in a Read/Edit rule means (the Claude Code permissions docs). */
  pathRoot: string;
  /** What `./x` in sandbox paths is relative to (the Claude Code sandboxing docs). */
  sandboxRoot: string;
  /** Project-supplied (project or local settings): widening keys need a trusted folder. */
  projectSupplied: boolean;
}

/** CLI flags that feed permissions (the Claude Code permissions docs). */
export interface CliPermissionFlags {
  /** `--allowedTools` values (each may hold several rules separated by commas or spaces). */
  allowedTools?: string[];
  /** `--disallowedTools` values. */
  disallowedTools?: string[];
  permissionMode?: string;
  /** `--add-dir` values (relative to the cwd). */
  addDirs?: string[];
  /** `--dangerously-skip-permissions`: start in bypassPermissions. */
  dangerouslySkipPermissions?: boolean;
}

/** A Gantry scalar setting with its origin, and the lower values that were ignored (for explanations). */
export interface ScalarSetting<T> {
  value: T;
  /** The file that set it; undefined for the default. */
  file?: string;
  source?: RuleSource;
  /** `project settings /p/.claude/settings.json set destructiveFloor "off"; …` */
  ignored: string[];
}

/** Everything the engine needs from settings, merged. */
export interface LoadedSettings {
  rules: RuleSet;
  problems: SettingsProblem[];
  /** Mode from `--permission-mode` or `defaultMode` (precedence), `default` otherwise. */
  defaultMode: PermissionMode;
  /** Absolute additional working directories (`--add-dir`, `additionalDirectories`). */
  additionalDirectories: string[];
  disableBypassPermissionsMode: boolean;
  disableAutoMode: boolean;
  /**
   * Deadline of one Bash analysis (ms), from the settings key `analysisDeadlineMs` (highest
   * precedence that sets it; an untrusted project may only shorten it). Unset: the environment
   * variable `GANTRY_ANALYSIS_DEADLINE_MS` or 1000 ms (docs/analysis-budget.md).
   */
  analysisDeadlineMs?: number;
  preToolUseHooks: HookMatcherConfig[];
  /**
   * Command hooks of the other events, by event, after the same trust and disable rules as
   * PreToolUse (the loop runs them; PreToolUse hooks run inside the engine).
   */
  eventHooks: Partial<Record<HookEventName, HookMatcherConfig[]>>;
  /**
   * False when settings keep hooks from outside managed settings from running
   * (`disableAllHooks`, managed `allowManagedHooksOnly`): agent definitions' hooks obey it too.
   * Absent means true (settings built in code, without files).
   */
  nonManagedHooksAllowed?: boolean;
  /** The merged `sandbox` object (core/sandbox-settings.ts), filesystem paths absolute. */
  sandbox: SandboxSettings;
  /** Whether project-supplied settings may widen permissions, and why. */
  trust: { trusted: boolean; reason: string };
  /**
   * The destructive floor's level and where it came from. Only user and managed settings may lower
   * it below `standard`; a lower value elsewhere is ignored and named in `notes`.
   */
  destructiveFloor: ScalarSetting<DestructiveFloorLevel>;
  /**
   * Reading credential files (`.env`, private keys, cloud credentials): `ask` (default) or `allow`.
   * Only user and managed settings may set `allow`.
   */
  secretReads: ScalarSetting<'ask' | 'allow'>;
  /** Broken settings that make decisions fail closed (empty when every file was read). */
  broken: BrokenSetting[];
  /** Every file looked at, in precedence order. */
  files: { file: string; source: RuleSource; loaded: boolean }[];
  projectRoot: string;
  home: string;
}

export type { SandboxSettings };
