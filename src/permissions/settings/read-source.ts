/**
 * Reads one settings file into the pieces the engine uses, with the line of every rule and every
 * problem (a wrong type, an unknown mode, a malformed hook). Unknown keys are ignored (settings
 * files carry much more than permissions). A missing file is not a problem (except one named with
 * `--settings`, which is an error); an unreadable or
 * syntactically broken one is an error and contributes nothing.
 *
 * Problems that may have dropped a restriction carry `failClosed` (types.ts `BrokenSetting`): the
 * file is unreadable or not JSON, `permissions`, a deny or ask list, a mode, a boolean switch or a
 * hook has the wrong shape (`all`), or a sandbox key was dropped (`sandbox`). Problems that only
 * lose a widening (a broken allow list, `additionalDirectories`) do not.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PermissionBehavior, PermissionMode } from '../../core/permission-types.js';
import {
  resolveSandboxPaths,
  type SandboxSettingsInput,
  SandboxSettingsInputSchema,
} from '../../core/sandbox-settings.js';
import { DESTRUCTIVE_FLOOR_LEVELS, type DestructiveFloorLevel } from '../../core/destructive-floor/index.js';
import type { RuleEntry } from '../rules/rule-set.js';
import { parsePermissionMode } from './cli-flags.js';
import { type JsonPath, parseJsonWithLines } from './json-locate.js';
import {
  type CommandHookConfig,
  HOOK_EVENT_NAMES,
  type HookEventName,
  type HookMatcherConfig,
  type SettingsProblem,
  type SettingsSourceSpec,
} from './types.js';

export interface SourceContent {
  spec: SettingsSourceSpec;
  loaded: boolean;
  rules: RuleEntry[];
  defaultMode?: PermissionMode;
  additionalDirectories: string[];
  disableBypassPermissionsMode?: boolean;
  disableAutoMode?: boolean;
  /** `destructiveFloor` as written (an unknown value reads as `strict`, the fail-closed reading). */
  destructiveFloor?: DestructiveFloorLevel;
  /** `secretReads` as written (an unknown value reads as `ask`). */
  secretReads?: 'ask' | 'allow';
  allowManagedPermissionRulesOnly?: boolean;
  allowManagedHooksOnly?: boolean;
  disableAllHooks?: boolean;
  preToolUseHooks: HookMatcherConfig[];
  /** Command hooks of the other events (`HOOK_EVENT_NAMES`), by event. */
  eventHooks: Partial<Record<HookEventName, HookMatcherConfig[]>>;
  /** Gantry's `analysisDeadlineMs` (a positive number of ms), docs/analysis-budget.md. */
  analysisDeadlineMs?: number;
  /** The file's `sandbox` object, validated, filesystem paths absolute. */
  sandbox?: SandboxSettingsInput;
  problems: SettingsProblem[];
  /** Problems about parts an untrusted project may not use anyway (hooks): they fail closed only when trusted. */
  trustedOnly: Set<SettingsProblem>;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads and extracts one settings file. `home` expands `~/` in directories and sandbox paths;
 * relative `additionalDirectories` resolve against `projectRoot` (the session's original cwd).
 */
export function readSettingsSource(
  spec: SettingsSourceSpec,
  world: { home: string; projectRoot: string },
): SourceContent {
  const { home } = world;
  const out: SourceContent = {
    spec,
    loaded: false,
    rules: [],
    additionalDirectories: [],
    preToolUseHooks: [],
    eventHooks: {},
    problems: [],
    trustedOnly: new Set(),
  };
  let text: string;
  try {
    text = readFileSync(spec.file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A file named on the command line (`--settings FILE`) must exist: a typo would silently drop its deny rules.
    if (spec.source === 'cliArg' && (code === 'ENOENT' || code === 'ENOTDIR'))
      out.problems.push({
        severity: 'error',
        file: spec.file,
        message: 'settings file given with --settings does not exist',
        failClosed: 'all',
      });
    else if (code !== 'ENOENT' && code !== 'ENOTDIR')
      out.problems.push({
        severity: 'error',
        file: spec.file,
        message: `cannot read settings: ${(e as Error).message}`,
        failClosed: 'all',
      });
    return out;
  }
  if (text.trim() === '') return { ...out, loaded: true };
  const parsed = parseJsonWithLines(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    out.problems.push({
      severity: 'error',
      file: spec.file,
      line: parsed.line,
      message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}; the whole file is ignored`,
      failClosed: 'all',
    });
    return out;
  }
  out.loaded = true;
  const root = parsed.value;
  const lineOf = (p: JsonPath): number | undefined => parsed.lineOf(p);
  /** `failClosed` (default `all`): what the dropped part could have restricted; `false` when only a widening is lost. */
  const problem = (
    p: JsonPath,
    message: string,
    failClosed: SettingsProblem['failClosed'] | false = 'all',
  ): void => {
    const line = lineOf(p);
    out.problems.push({
      severity: 'error',
      file: spec.file,
      message,
      ...(line !== undefined ? { line } : {}),
      ...(failClosed ? { failClosed } : {}),
    });
  };
  if (!isObj(root)) {
    problem([], 'settings must be a JSON object; the whole file is ignored');
    return out;
  }
  const bool = (obj: Record<string, unknown>, key: string, p: JsonPath): boolean | undefined => {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (typeof v === 'boolean') return v;
    problem([...p, key], `"${key}" must be true or false`);
    return undefined;
  };
  /** A list whose loss only narrows (directories): its problems do not fail closed. */
  const strings = (obj: Record<string, unknown>, key: string, p: JsonPath): string[] | undefined => {
    const v = obj[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) {
      problem([...p, key], `"${key}" must be an array of strings`, false);
      return undefined;
    }
    const res: string[] = [];
    v.forEach((item, i) => {
      if (typeof item === 'string') res.push(item);
      else problem([...p, key, i], `"${key}[${i}]" must be a string; entry ignored`, false);
    });
    return res;
  };
  const absPath = (p: string, base: string): string =>
    p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(base, p);

  const perms = root.permissions;
  if (perms !== undefined && !isObj(perms)) problem(['permissions'], '"permissions" must be an object');
  if (isObj(perms)) {
    for (const behavior of ['allow', 'ask', 'deny'] as PermissionBehavior[]) {
      const list = perms[behavior];
      if (list === undefined) continue;
      // A lost allow list only narrows; a lost deny or ask list could hide any restriction.
      const lost = behavior === 'allow' ? false : 'all';
      if (!Array.isArray(list)) {
        problem(
          ['permissions', behavior],
          `"permissions.${behavior}" must be an array of rule strings; the list is ignored`,
          lost,
        );
        continue;
      }
      list.forEach((text, i) => {
        const line = lineOf(['permissions', behavior, i]);
        if (typeof text !== 'string') {
          problem(
            ['permissions', behavior, i],
            `permissions.${behavior}[${i}] is not a string; rule ignored`,
            lost,
          );
          return;
        }
        out.rules.push({
          text,
          behavior,
          source: spec.source,
          file: spec.file,
          pathRoot: spec.pathRoot,
          ...(line !== undefined ? { line } : {}),
        });
      });
    }
    if (perms.defaultMode !== undefined) {
      const m = typeof perms.defaultMode === 'string' ? parsePermissionMode(perms.defaultMode) : undefined;
      if (m) out.defaultMode = m;
      else
        problem(
          ['permissions', 'defaultMode'],
          `unknown permissions.defaultMode ${JSON.stringify(perms.defaultMode)}`,
        );
    }
    const dirs = strings(perms, 'additionalDirectories', ['permissions']);
    if (dirs) out.additionalDirectories = dirs.map((d) => absPath(d, world.projectRoot));
    const disable = (key: string): boolean | undefined => {
      const v = perms[key];
      if (v === undefined) return undefined;
      if (v === 'disable' || v === true) return true;
      if (v === false) return false;
      problem(['permissions', key], `"permissions.${key}" must be "disable"`);
      return undefined;
    };
    const db = disable('disableBypassPermissionsMode');
    if (db !== undefined) out.disableBypassPermissionsMode = db;
    const da = disable('disableAutoMode');
    if (da !== undefined) out.disableAutoMode = da;
    const amp = bool(perms, 'allowManagedPermissionRulesOnly', ['permissions']);
    if (amp !== undefined) out.allowManagedPermissionRulesOnly = amp;
  }
  const topAmp = bool(root, 'allowManagedPermissionRulesOnly', []);
  if (topAmp !== undefined) out.allowManagedPermissionRulesOnly = topAmp;
  const floor = root.destructiveFloor;
  if (floor !== undefined) {
    if (typeof floor === 'string' && DESTRUCTIVE_FLOOR_LEVELS.includes(floor as DestructiveFloorLevel))
      out.destructiveFloor = floor as DestructiveFloorLevel;
    else {
      out.destructiveFloor = 'strict';
      problem(
        ['destructiveFloor'],
        `"destructiveFloor" must be "off", "standard" or "strict" (got ${JSON.stringify(floor)}); read as "strict"`,
        false,
      );
    }
  }
  const secrets = root.secretReads;
  if (secrets !== undefined) {
    if (secrets === 'ask' || secrets === 'allow') out.secretReads = secrets;
    else {
      out.secretReads = 'ask';
      problem(
        ['secretReads'],
        `"secretReads" must be "ask" or "allow" (got ${JSON.stringify(secrets)}); read as "ask"`,
        false,
      );
    }
  }
  const amh = bool(root, 'allowManagedHooksOnly', []);
  if (amh !== undefined) out.allowManagedHooksOnly = amh;
  const dah = bool(root, 'disableAllHooks', []);
  if (dah !== undefined) out.disableAllHooks = dah;
  const deadline = root.analysisDeadlineMs;
  if (deadline !== undefined) {
    if (typeof deadline === 'number' && Number.isFinite(deadline) && deadline > 0)
      out.analysisDeadlineMs = deadline;
    else problem(['analysisDeadlineMs'], '"analysisDeadlineMs" must be a positive number of milliseconds');
  }

  const before = out.problems.length;
  readHooks(root, spec, problem, lineOf, out);
  for (const p of out.problems.slice(before)) out.trustedOnly.add(p);
  readSandbox(root, spec, problem, home, out);
  return out;
}

function readHooks(
  root: Record<string, unknown>,
  spec: SettingsSourceSpec,
  problem: (p: JsonPath, m: string, failClosed?: SettingsProblem['failClosed'] | false) => void,
  lineOf: (p: JsonPath) => number | undefined,
  out: SourceContent,
): void {
  const hooks = root.hooks;
  if (hooks === undefined) return;
  if (!isObj(hooks)) return problem(['hooks'], '"hooks" must be an object keyed by event name');
  for (const event of HOOK_EVENT_NAMES) {
    const list = hooks[event];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problem(['hooks', event], `"hooks.${event}" must be an array`);
      continue;
    }
    const target = event === 'PreToolUse' ? out.preToolUseHooks : (out.eventHooks[event] ??= []);
    readHookList(list, event, target, spec, problem, lineOf);
  }
}

function readHookList(
  list: unknown[],
  event: string,
  target: HookMatcherConfig[],
  spec: SettingsSourceSpec,
  problem: (p: JsonPath, m: string, failClosed?: SettingsProblem['failClosed'] | false) => void,
  lineOf: (p: JsonPath) => number | undefined,
): void {
  list.forEach((entry, i) => {
    const p = ['hooks', event, i];
    if (!isObj(entry)) return problem(p, 'hook entry must be an object {matcher, hooks}');
    if (entry.matcher !== undefined && typeof entry.matcher !== 'string')
      return problem([...p, 'matcher'], 'hook "matcher" must be a string');
    if (!Array.isArray(entry.hooks)) return problem([...p, 'hooks'], 'hook entry needs a "hooks" array');
    const handlers: CommandHookConfig[] = [];
    entry.hooks.forEach((h, j) => {
      const hp = [...p, 'hooks', j];
      if (!isObj(h)) return problem(hp, 'hook handler must be an object');
      if (h.type !== 'command') {
        problem(
          hp,
          `hook type ${JSON.stringify(h.type)} is not supported by Gantry's engine (only "command"); skipped`,
          false,
        );
        return;
      }
      if (typeof h.command !== 'string' || h.command.trim() === '')
        return problem(hp, 'command hook needs a non-empty "command" string');
      if (h.timeout !== undefined && (typeof h.timeout !== 'number' || !(h.timeout > 0)))
        return problem([...hp, 'timeout'], 'hook "timeout" must be a positive number of seconds');
      handlers.push({
        type: 'command',
        command: h.command,
        ...(typeof h.timeout === 'number' ? { timeout: h.timeout } : {}),
      });
    });
    if (handlers.length === 0) return;
    const line = lineOf(p);
    target.push({
      ...(typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {}),
      hooks: handlers,
      source: spec.source,
      file: spec.file,
      ...(line !== undefined ? { line } : {}),
    });
  });
}

function readSandbox(
  root: Record<string, unknown>,
  spec: SettingsSourceSpec,
  problem: (p: JsonPath, m: string, failClosed?: SettingsProblem['failClosed'] | false) => void,
  home: string,
  out: SourceContent,
): void {
  if (root.sandbox === undefined) return;
  if (!isObj(root.sandbox)) return problem(['sandbox'], '"sandbox" must be an object', 'sandbox');
  // Drop invalid keys one by one (each reported with its line) so the valid ones still apply.
  const sb: Record<string, unknown> = structuredClone(root.sandbox);
  for (let attempt = 0; attempt < 20; attempt++) {
    const r = SandboxSettingsInputSchema.safeParse(sb);
    if (r.success) {
      out.sandbox = resolveSandboxPaths(r.data, { root: spec.sandboxRoot, home });
      return;
    }
    const issue = r.error.issues[0];
    if (!issue || issue.path.length === 0) break;
    const keyPath = issue.path.slice(0, 2).map((k) => (typeof k === 'symbol' ? String(k) : k));
    problem(['sandbox', ...keyPath], `sandbox.${keyPath.join('.')}: ${issue.message}; ignored`, 'sandbox');
    let parent: Record<string, unknown> = sb;
    for (const k of keyPath.slice(0, -1)) parent = (parent[k as string] ?? {}) as Record<string, unknown>;
    delete parent[keyPath[keyPath.length - 1] as string];
  }
  problem(['sandbox'], 'sandbox settings could not be read; ignored', 'sandbox');
}
