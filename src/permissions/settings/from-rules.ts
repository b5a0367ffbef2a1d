/**
 * Settings built from rule lists in memory, without reading any file: for the security
 * evaluation (a case's `cwd_rules`), `gantry check --allow …`, embedders and tests. Problems are
 * reported like the loader's (no file, no line).
 */
import { type SandboxSettings, defaultSandboxSettings } from '../../core/sandbox-settings.js';
import type { PermissionBehavior, PermissionMode, RuleSource } from '../../core/permission-types.js';
import { compileRule, RuleSet } from '../rules/rule-set.js';
import type { DestructiveFloorLevel } from '../../core/destructive-floor/index.js';
import { ruleToolScope } from './broken.js';
import type { BrokenSetting, HookMatcherConfig, LoadedSettings, SettingsProblem } from './types.js';

export interface InlineSettings {
  projectRoot: string;
  home: string;
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
  /** Source recorded on the rules (default `session`). */
  source?: RuleSource;
  /** What `/x` means in path rules (default: the project root, as for project settings). */
  pathRoot?: string;
  defaultMode?: PermissionMode;
  additionalDirectories?: readonly string[];
  preToolUseHooks?: readonly HookMatcherConfig[];
  sandbox?: Partial<SandboxSettings>;
  disableBypassPermissionsMode?: boolean;
  disableAutoMode?: boolean;
  /** Destructive floor level (default `standard`). */
  destructiveFloor?: DestructiveFloorLevel;
  /** Credential-file reads (default `ask`). */
  secretReads?: 'ask' | 'allow';
}

/** Compiles inline rule lists into `LoadedSettings` (malformed rules land in `problems`). */
export function settingsFromRules(s: InlineSettings): LoadedSettings {
  const rules = new RuleSet();
  const problems: SettingsProblem[] = [];
  const broken: BrokenSetting[] = [];
  const source = s.source ?? 'session';
  for (const behavior of ['deny', 'ask', 'allow'] as PermissionBehavior[])
    for (const text of s[behavior] ?? []) {
      const { rule, problems: rp } = compileRule(
        { text, behavior, source, pathRoot: s.pathRoot ?? s.projectRoot },
        { home: s.home, cwd: s.projectRoot },
      );
      for (const p of rp) {
        const message = `${p.behavior} rule "${p.rule}": ${p.message}`;
        problems.push({ severity: p.severity, message, rule: p.rule });
        if (p.severity === 'error' && p.behavior !== 'allow')
          broken.push({
            file: `${source} rules`,
            message: `malformed ${message}`,
            source,
            scope: ruleToolScope(p.rule),
          });
      }
      if (rule) rules.add(rule);
    }
  return {
    rules,
    problems,
    defaultMode: s.defaultMode ?? 'default',
    additionalDirectories: [...(s.additionalDirectories ?? [])],
    disableBypassPermissionsMode: s.disableBypassPermissionsMode ?? false,
    disableAutoMode: s.disableAutoMode ?? false,
    preToolUseHooks: [...(s.preToolUseHooks ?? [])],
    eventHooks: {},
    sandbox: { ...defaultSandboxSettings(), ...s.sandbox },
    trust: { trusted: true, reason: 'inline settings' },
    broken,
    destructiveFloor: { value: s.destructiveFloor ?? 'standard', ignored: [] },
    secretReads: { value: s.secretReads ?? 'ask', ignored: [] },
    files: [],
    projectRoot: s.projectRoot,
    home: s.home,
  };
}
