/**
 * `gantry/permissions`, the permission engine: settings, rules, modes, protected paths, hooks, the
 * auto-mode classifier — a pure decision function over data, every decision explained.
 *
 * Typical use:
 * ```ts
 * const settings = loadSettings({ projectRoot, cli: { allowedTools: ['Bash(npm test:*)'] } });
 * const engine = createPermissionEngine({ settings });
 * const decision = await engine.decider(request); // core PermissionDecider
 * ```
 */
export {
  type BuildPermissionRequestOptions,
  buildPermissionRequest,
} from '../core/permission-request.js';
export { builtinClassifier, scoreRisk } from './classifier/builtin-scorer.js';
export {
  createModelClassifier,
  type ModelAutoModeClassifier,
  type ModelClassifierOptions,
  parseRating,
  transcriptExcerpt,
} from './classifier/model-classifier.js';
export type {
  AutoModeClassifier,
  ClassifierRequest,
  ClassifierVerdict,
  RiskLevel,
} from './classifier/types.js';
export { describeToolInput } from './describe-input.js';
export {
  createPermissionEngine,
  type DecideOptions,
  type DetailedDecision,
  type PermissionEngine,
  type PermissionEngineOptions,
} from './engine.js';
export { describeEffect, describeRule } from './explain.js';
export { compileHookMatcher } from './hooks/matcher.js';
export { DEFAULT_HOOK_TIMEOUT_MS, type PreToolUseInput, runPreToolUseHooks } from './hooks/pre-tool-use.js';
export type { HookVerdict } from './hooks/types.js';
export { DEFAULT_ACCEPT_EDITS_COMMANDS, type PipelineStep } from './pipeline.js';
export { isCriticalRemovalTarget, matchProtectedWrite, type ProtectedPathMatch } from './protected-paths.js';
export { parseRuleText } from './rules/parse-rule.js';
export {
  type CompiledRule,
  compileRule,
  type RuleEntry,
  type RuleProblem,
  RuleSet,
} from './rules/rule-set.js';
export { compileShellPattern, matchShellPattern } from './rules/shell-pattern.js';
export {
  CLASSIFIER_MAX_CONSECUTIVE_DENIALS,
  CLASSIFIER_MAX_TOTAL_DENIALS,
  PermissionSession,
  RecentDecisions,
} from './session.js';
export { parsePermissionMode, splitToolList } from './settings/cli-flags.js';
export { type LoadSettingsOptions, loadSettings } from './settings/load.js';
export { destinationFile, type PersistDestination, persistRule } from './settings/persist.js';
export { DEFAULT_MANAGED_FILES, settingsSources } from './settings/sources.js';
export { resolveTrust, type TrustResult } from './settings/trust.js';
export type {
  CliPermissionFlags,
  CommandHookConfig,
  HookMatcherConfig,
  LoadedSettings,
  SandboxSettings,
  SettingsProblem,
} from './settings/types.js';
export { bashRuleFor, pathRuleFor, suggestRules } from './suggestions.js';
export { isExemptDevicePath } from './working-dirs.js';
