/**
 * `loadSettings`: reads every settings source (sources.ts), applies workspace trust (trust.ts),
 * merges them (the Claude Code permissions docs) and compiles the rules once.
 *
 * - Rule lists are unioned across sources; evaluation is deny → ask → allow whatever the source.
 * - Scalars (`defaultMode`, sandbox booleans) take the highest-precedence source that sets them:
 *   managed > CLI (`--permission-mode`, `--settings`) > local > project > user.
 * - `allowManagedPermissionRulesOnly` (managed): allow rules from other sources are ignored.
 * - `disableAllHooks` follows precedence; `allowManagedHooksOnly` (managed) keeps managed hooks only.
 * - Untrusted folder: project-supplied allow rules, widening `defaultMode` (acceptEdits, auto,
 *   bypassPermissions), `additionalDirectories`, hooks and widening sandbox keys are ignored, each with
 *   a warning naming the file; deny/ask rules and narrowing keys still apply.
 * - Malformed rules are reported with file and line and skipped; nothing is dropped silently.
 * - Fail closed: a problem that may have dropped a restriction (an unparsable file, a deny list of
 *   the wrong type, a malformed deny or ask rule …) is also listed in `broken`; the engine then asks
 *   for every call it could have restricted (types.ts `BrokenSetting`).
 */
import { homedir } from 'node:os';
import path from 'node:path';
import type { PermissionMode } from '../../core/permission-types.js';
import { compileRule, type RuleEntry, RuleSet } from '../rules/rule-set.js';
import { parsePermissionMode, splitToolList } from './cli-flags.js';
import { mergeSandboxSettings, type SandboxSettingsInput } from '../../core/sandbox-settings.js';
import { ruleToolScope } from './broken.js';
import { readSettingsSource, type SourceContent } from './read-source.js';
import { type SourceOptions, settingsSources } from './sources.js';
import { resolveTrust } from './trust.js';
import type { DestructiveFloorLevel } from '../../core/destructive-floor/index.js';
import type {
  BrokenSetting,
  CliPermissionFlags,
  HookEventName,
  HookMatcherConfig,
  LoadedSettings,
  ScalarSetting,
  SettingsProblem,
} from './types.js';

export interface LoadSettingsOptions extends Omit<SourceOptions, 'home'> {
  home?: string;
  cli?: CliPermissionFlags;
  /** Explicit trust decision (`--trust`); see trust.ts for the other ways. */
  trust?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra rules from the embedding program (e.g. an evaluation harness), merged as given. */
  extraRules?: readonly RuleEntry[];
}

const WIDENING_MODES: readonly PermissionMode[] = ['acceptEdits', 'auto', 'bypassPermissions'];

/**
 * The default analysis deadline (ms; the shell room's `DEFAULT_ANALYSIS_DEADLINE_MS`, which this
 * room does not import at load time): an untrusted project may set a shorter one only.
 */
const DEFAULT_ANALYSIS_DEADLINE_MS = 1000;

const analysisDeadline = (ms: number | undefined) => (ms === undefined ? {} : { analysisDeadlineMs: ms });

/** Drops what an untrusted project may not widen; returns warnings. */
function applyDistrust(c: SourceContent): SettingsProblem[] {
  const warn = (message: string): SettingsProblem => ({ severity: 'warning', file: c.spec.file, message });
  const out: SettingsProblem[] = [];
  const allows = c.rules.filter((r) => r.behavior === 'allow');
  if (allows.length) {
    out.push(
      warn(
        `untrusted folder: ${allows.length} allow rule(s) ignored (${allows.map((r) => r.text).join(', ')})`,
      ),
    );
    c.rules = c.rules.filter((r) => r.behavior !== 'allow');
  }
  if (c.defaultMode && WIDENING_MODES.includes(c.defaultMode)) {
    out.push(warn(`untrusted folder: defaultMode "${c.defaultMode}" ignored`));
    delete c.defaultMode;
  }
  if (c.additionalDirectories.length) {
    out.push(warn('untrusted folder: additionalDirectories ignored'));
    c.additionalDirectories = [];
  }
  if (c.preToolUseHooks.length || Object.keys(c.eventHooks).length) {
    out.push(warn('untrusted folder: hooks ignored (they would run commands from the repository)'));
    c.preToolUseHooks = [];
    c.eventHooks = {};
  }
  // A longer analysis deadline could outlast the host's hook timeout (the host then runs the call
  // unchecked): an untrusted project may only shorten it.
  if (c.analysisDeadlineMs !== undefined && c.analysisDeadlineMs > DEFAULT_ANALYSIS_DEADLINE_MS) {
    out.push(
      warn(
        `untrusted folder: analysisDeadlineMs ${c.analysisDeadlineMs} ignored (only a shorter deadline applies)`,
      ),
    );
    delete c.analysisDeadlineMs;
  }
  if (c.sandbox) {
    const s = c.sandbox;
    const kept: SandboxSettingsInput = {};
    if (s.enabled === true) kept.enabled = true;
    if (s.allowUnsandboxedCommands === false) kept.allowUnsandboxedCommands = false;
    if (s.failIfUnavailable === true) kept.failIfUnavailable = true;
    if (s.autoAllowBashIfSandboxed === false) kept.autoAllowBashIfSandboxed = false;
    const fs = s.filesystem;
    if (fs?.denyRead || fs?.denyWrite)
      kept.filesystem = {
        ...(fs.denyRead ? { denyRead: fs.denyRead } : {}),
        ...(fs.denyWrite ? { denyWrite: fs.denyWrite } : {}),
      };
    if (s.network?.deniedDomains) kept.network = { deniedDomains: s.network.deniedDomains };
    if (JSON.stringify(kept) !== JSON.stringify(s))
      out.push(warn('untrusted folder: sandbox settings that widen access ignored'));
    c.sandbox = kept;
  }
  return out;
}

const FLOOR_ORDER: readonly DestructiveFloorLevel[] = ['off', 'standard', 'strict'];
const SECRET_ORDER: readonly ('allow' | 'ask')[] = ['allow', 'ask'];
const LOWERING_SOURCES = new Set(['managed', 'userSettings']);

/**
 * A safety scalar (destructive floor, secret reads) that only managed and user settings may lower:
 * the base is the managed value, else the user value, else `fallback`; any source may raise it,
 * and a lower value from any other source (local, project, `--settings`) is ignored with a warning.
 * `order` lists the values from the least to the most strict.
 */
function guardedScalar<T>(
  contents: readonly SourceContent[],
  get: (c: SourceContent) => T | undefined,
  fallback: T,
  order: readonly T[],
  key: string,
  problems: SettingsProblem[],
): ScalarSetting<T> {
  let out: ScalarSetting<T> = { value: fallback, ignored: [] };
  const base =
    contents.find((c) => c.spec.source === 'managed' && get(c) !== undefined) ??
    contents.find((c) => c.spec.source === 'userSettings' && get(c) !== undefined);
  if (base) out = { value: get(base) as T, file: base.spec.file, source: base.spec.source, ignored: [] };
  const rank = (v: T): number => order.indexOf(v);
  const floorOfBase = out.value;
  for (const c of contents) {
    const v = get(c);
    if (v === undefined) continue;
    if (rank(v) > rank(out.value)) out = { ...out, value: v, file: c.spec.file, source: c.spec.source };
    else if (!LOWERING_SOURCES.has(c.spec.source) && rank(v) < rank(floorOfBase)) {
      const note = `${c.spec.file} sets ${key} ${JSON.stringify(v)}, but only user or managed settings may lower it; ignored`;
      out.ignored.push(note);
      problems.push({ severity: 'warning', file: c.spec.file, message: note });
    }
  }
  return out;
}

/** Reads, trusts, merges and compiles every settings source (see module doc). Never throws on bad files. */
export function loadSettings(opts: LoadSettingsOptions): LoadedSettings {
  const projectRoot = path.resolve(opts.projectRoot);
  const home = opts.home ?? homedir();
  const trust = resolveTrust({
    projectRoot,
    home,
    ...(opts.trust !== undefined ? { explicit: opts.trust } : {}),
    env: opts.env ?? process.env,
  });
  const problems: SettingsProblem[] = [];
  // The same file reached twice (project root = home): keep the non-project reading of it.
  const all = settingsSources({ ...opts, projectRoot, home });
  const chosen = new Map<string, (typeof all)[number]>();
  for (const s of all) {
    const prev = chosen.get(s.file);
    if (!prev || (prev.projectSupplied && !s.projectSupplied)) chosen.set(s.file, s);
  }
  const specs = all.filter((s) => chosen.get(s.file) === s);

  const contents = specs.map((spec) => readSettingsSource(spec, { home, projectRoot }));
  const broken: BrokenSetting[] = [];
  for (const c of contents) {
    problems.push(...c.problems);
    const untrusted = c.spec.projectSupplied && !trust.trusted;
    for (const p of c.problems)
      if (p.failClosed && !(untrusted && c.trustedOnly.has(p)))
        broken.push({
          file: p.file ?? c.spec.file,
          ...(p.line !== undefined ? { line: p.line } : {}),
          message: p.message,
          source: c.spec.source,
          scope: p.failClosed,
        });
    if (c.spec.projectSupplied && c.loaded && !trust.trusted) problems.push(...applyDistrust(c));
  }
  for (const c of contents) {
    // Binary paths run outside any sandbox: only managed settings may set them (the Claude Code sandboxing docs).
    if (
      c.spec.source !== 'managed' &&
      c.sandbox &&
      (c.sandbox.bwrapPath !== undefined || c.sandbox.socatPath !== undefined)
    ) {
      const { bwrapPath: _b, socatPath: _s, ...rest } = c.sandbox;
      c.sandbox = rest;
      problems.push({
        severity: 'warning',
        file: c.spec.file,
        message: 'sandbox.bwrapPath/socatPath ignored: only managed settings may set them',
      });
    }
  }
  const managed = contents.filter((c) => c.spec.source === 'managed');
  const managedOnlyRules = managed.some((c) => c.allowManagedPermissionRulesOnly);
  const managedOnlyHooks = managed.some((c) => c.allowManagedHooksOnly);

  // CLI flags sit between managed and file-based sources.
  const cli = opts.cli ?? {};
  const cliEntries: RuleEntry[] = [];
  for (const [flag, behavior] of [
    ['allowedTools', 'allow'],
    ['disallowedTools', 'deny'],
  ] as const)
    for (const value of cli[flag] ?? [])
      for (const text of splitToolList(value))
        cliEntries.push({ text, behavior, source: 'cliArg', pathRoot: projectRoot });
  let cliMode: PermissionMode | undefined;
  if (cli.dangerouslySkipPermissions) cliMode = 'bypassPermissions';
  if (cli.permissionMode !== undefined) {
    cliMode = parsePermissionMode(cli.permissionMode);
    if (!cliMode) {
      const message = `unknown --permission-mode "${cli.permissionMode}"`;
      problems.push({ severity: 'error', message, failClosed: 'all' });
      broken.push({ file: '--permission-mode', message, source: 'cliArg', scope: 'all' });
    }
  }

  const entries: RuleEntry[] = [];
  const firstManagedAfter = managed.length;
  contents.forEach((c, i) => {
    if (i === firstManagedAfter) entries.push(...cliEntries);
    for (const r of c.rules) {
      if (managedOnlyRules && r.behavior === 'allow' && c.spec.source !== 'managed') {
        problems.push({
          severity: 'warning',
          file: c.spec.file,
          ...(r.line !== undefined ? { line: r.line } : {}),
          rule: r.text,
          message: `allow rule ignored: managed settings set allowManagedPermissionRulesOnly`,
        });
        continue;
      }
      entries.push(r);
    }
  });
  if (contents.length <= firstManagedAfter) entries.push(...cliEntries);
  entries.push(...(opts.extraRules ?? []));

  const rules = new RuleSet();
  for (const entry of entries) {
    const { rule, problems: rp } = compileRule(entry, { home, cwd: projectRoot });
    for (const p of rp) {
      // A malformed deny or ask rule could only have restricted the tool it names.
      if (p.severity === 'error' && p.behavior !== 'allow')
        broken.push({
          file: p.file ?? (p.source === 'cliArg' ? '--disallowedTools' : p.source),
          ...(p.line !== undefined ? { line: p.line } : {}),
          message: `malformed ${p.behavior} rule "${p.rule}": ${p.message}`,
          source: p.source,
          scope: ruleToolScope(p.rule),
        });
      problems.push({
        severity: p.severity,
        message: `${p.severity === 'error' ? 'malformed' : 'note on'} ${p.behavior} rule "${p.rule}": ${p.message}`,
        rule: p.rule,
        ...(p.file !== undefined ? { file: p.file } : {}),
        ...(p.line !== undefined ? { line: p.line } : {}),
      });
    }
    if (rule) rules.add(rule);
  }

  const firstSet = <T>(get: (c: SourceContent) => T | undefined): T | undefined => {
    for (const c of contents) {
      const v = get(c);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const managedMode = firstSet((c) => (c.spec.source === 'managed' ? c.defaultMode : undefined));
  const defaultMode = managedMode ?? cliMode ?? firstSet((c) => c.defaultMode) ?? 'default';
  const additionalDirectories = [
    ...new Set([
      ...(cli.addDirs ?? []).map((d) =>
        path.resolve(projectRoot, d.startsWith('~/') ? path.join(home, d.slice(2)) : d),
      ),
      ...contents.flatMap((c) => c.additionalDirectories),
    ]),
  ];
  const hooksDisabled = firstSet((c) => c.disableAllHooks) === true;
  const managedHooksDisabled = managed.some((c) => c.disableAllHooks);
  let preToolUseHooks: HookMatcherConfig[] = [];
  if (!managedHooksDisabled)
    preToolUseHooks = contents
      .filter((c) => (managedOnlyHooks ? c.spec.source === 'managed' : true))
      .filter((c) => c.spec.source === 'managed' || !hooksDisabled)
      .flatMap((c) => c.preToolUseHooks);
  const eventHooks: LoadedSettings['eventHooks'] = {};
  if (!managedHooksDisabled)
    for (const c of contents) {
      if (managedOnlyHooks && c.spec.source !== 'managed') continue;
      if (c.spec.source !== 'managed' && hooksDisabled) continue;
      for (const [event, list] of Object.entries(c.eventHooks) as [HookEventName, HookMatcherConfig[]][])
        (eventHooks[event] ??= []).push(...list);
    }

  return {
    rules,
    problems,
    destructiveFloor: guardedScalar(
      contents,
      (c) => c.destructiveFloor,
      'standard',
      FLOOR_ORDER,
      'destructiveFloor',
      problems,
    ),
    secretReads: guardedScalar(contents, (c) => c.secretReads, 'ask', SECRET_ORDER, 'secretReads', problems),
    defaultMode,
    additionalDirectories,
    disableBypassPermissionsMode: contents.some((c) => c.disableBypassPermissionsMode === true),
    disableAutoMode: contents.some((c) => c.disableAutoMode === true),
    ...analysisDeadline(firstSet((c) => c.analysisDeadlineMs)),
    preToolUseHooks,
    eventHooks,
    nonManagedHooksAllowed: !managedHooksDisabled && !managedOnlyHooks && !hooksDisabled,
    sandbox: mergeSandboxSettings(contents.map((c) => c.sandbox ?? {})),
    trust,
    broken,
    files: contents.map((c) => ({ file: c.spec.file, source: c.spec.source, loaded: c.loaded })),
    projectRoot,
    home,
  };
}
