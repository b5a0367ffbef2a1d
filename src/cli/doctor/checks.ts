/**
 * The checks of `gantry doctor` (docs/guard.md "Doctor"). Each returns findings: `ok` lines that
 * say what was verified, and `problem` lines that say what is wrong and how to fix it. Checks run
 * the real programs and read the real files; none of them changes anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { WebSearchSettings } from '../../core/web-settings.js';
import type { LoadedSettings } from '../../permissions/index.js';
import { findOnPath, resolveSearchEngine } from '../../tools/ripgrep/resolve-ripgrep.js';
import { webSearchDiagnostics } from '../../tools/web-search/select-provider.js';
import { didYouMean, isKnownToolName } from '../shared/did-you-mean.js';
import { HOST_EVENTS, type HostAgent, hasGantryHook, isGantryHandler } from '../install/hook-entries.js';
import { codexHome } from '../install/install-command.js';

export interface Finding {
  kind: 'ok' | 'problem';
  text: string;
  /** For a problem: what to do about it. */
  fix?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** bubblewrap present and able to start a sandbox here; socat present. */
export function checkSandboxPrograms(env: Env): Finding[] {
  const out: Finding[] = [];
  const bwrap = findOnPath('bwrap', env.PATH);
  if (!bwrap)
    out.push({
      kind: 'problem',
      text: 'bubblewrap (bwrap) is not on PATH: the Bash sandbox cannot run',
      fix: 'install bubblewrap (Debian: apt-get install -y bubblewrap)',
    });
  else {
    const r = spawnSync(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', 'true'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (r.status === 0) out.push({ kind: 'ok', text: `bubblewrap starts a sandbox (${bwrap})` });
    else
      out.push({
        kind: 'problem',
        text: `bubblewrap is installed but cannot start a sandbox: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}`,
        fix: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run where namespaces are available',
      });
  }
  const socat = findOnPath('socat', env.PATH);
  out.push(
    socat
      ? { kind: 'ok', text: `socat found (${socat})` }
      : {
          kind: 'problem',
          text: 'socat is not on PATH: the sandbox network proxy cannot run',
          fix: 'install socat (Debian: apt-get install -y socat)',
        },
  );
  return out;
}

/**
 * Which provider WebSearch would use in an agent session started here, or why it is not offered.
 * Informational: a guard needs no search provider, so its absence is not a problem.
 */
export function checkWebSearch(env: Env, settings?: WebSearchSettings): Finding[] {
  const d = webSearchDiagnostics({ env, ...(settings ? { settings } : {}) });
  return [{ kind: 'ok', text: `WebSearch in agent sessions: ${d.reason}` }];
}

/** The search engine Glob and Grep will use. */
export async function checkRipgrep(env: Env): Promise<Finding[]> {
  const engine = await resolveSearchEngine({ env: { ...env } });
  if (engine.kind === 'ripgrep')
    return [{ kind: 'ok', text: `ripgrep found (${engine.rgPath}, from ${engine.source})` }];
  return [
    {
      kind: 'problem',
      text: 'no ripgrep binary found: Glob and Grep fall back to the slower JavaScript search',
      fix: 'reinstall the package (it ships @vscode/ripgrep), set RG_PATH, or install ripgrep',
    },
  ];
}

const where = (r: { file?: string; line?: number }) =>
  r.file ? `${r.file}${r.line ? `:${r.line}` : ''}` : 'the command line';

const SCOPE_LABEL: Readonly<Record<string, string>> = {
  managed: 'managed settings',
  userSettings: 'user settings',
  projectSettings: 'project settings',
  localSettings: 'local project settings',
  cliArg: 'the command line',
};

/**
 * The destructive floor's level in force here and who set it (the file and its scope, or the
 * default), with the lower values a project file tried and that were ignored (only user or managed
 * settings may lower the floor; docs/security-round-2.md).
 */
export function floorFinding(settings: LoadedSettings): Finding {
  const f = settings.destructiveFloor;
  const who = f.file
    ? `set by ${(f.source && SCOPE_LABEL[f.source]) ?? f.source ?? 'settings'} ${f.file}`
    : 'the default';
  const ignored = f.ignored.length ? `; ignored: ${f.ignored.join('; ')}` : '';
  return { kind: 'ok', text: `destructive floor: ${f.value} (${who})${ignored}` };
}

/** Settings files that do not parse, rules for tools that do not exist, allow rules a deny shadows. */
export function checkSettings(settings: LoadedSettings): Finding[] {
  const out: Finding[] = [];
  const loaded = settings.files.filter((f) => f.loaded);
  for (const p of settings.problems.filter((x) => x.severity === 'error'))
    out.push({
      kind: 'problem',
      text: `${where(p)}: ${p.message}`,
      fix: 'fix the file; until then Gantry asks for every call its rules could affect',
    });
  if (!settings.problems.some((x) => x.severity === 'error'))
    out.push({ kind: 'ok', text: `${loaded.length} settings file(s) read without errors` });
  const all = settings.rules.all;
  for (const r of all) {
    const name = r.rule.toolName;
    if (isKnownToolName(name)) continue;
    const guess = didYouMean(name);
    out.push({
      kind: 'problem',
      text: `${where(r.rule)}: rule ${r.rule.text} names no known tool, so it never matches`,
      fix: guess
        ? `did you mean ${guess}? (${r.rule.text.replace(name, guess)})`
        : 'check the tool name (names are case-sensitive)',
    });
  }
  for (const a of settings.rules.list('allow')) {
    const shadow = settings.rules.list('deny').find((d) => {
      if (!d.matchesTool(a.rule.toolName)) return false;
      if (d.kind === 'tool') return true;
      const dc = d.rule.ruleContent;
      const ac = a.rule.ruleContent;
      if (dc === undefined || ac === undefined) return false;
      if (dc === ac) return true;
      const prefix = /^(.*?)(?::\*| \*)$/.exec(dc)?.[1];
      return (
        prefix !== undefined && (ac === prefix || ac.startsWith(`${prefix} `) || ac.startsWith(`${prefix}:`))
      );
    });
    if (shadow)
      out.push({
        kind: 'problem',
        text: `${where(a.rule)}: allow rule ${a.rule.text} never applies: deny rule ${shadow.rule.text} (${where(shadow.rule)}) covers it`,
        fix: 'remove one of the two rules (deny always wins)',
      });
  }
  out.push(floorFinding(settings));
  out.push({
    kind: 'ok',
    text: settings.trust.trusted
      ? `project ${settings.projectRoot} is trusted (${settings.trust.reason}): its allow rules apply`
      : `project ${settings.projectRoot} is not trusted (${settings.trust.reason}): its allow rules and hooks are ignored`,
  });
  return out;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The Gantry command installed in a settings file, if any. */
function installedCommand(s: Record<string, unknown>, host: HostAgent): string | undefined {
  const list = (s.hooks as Record<string, unknown> | undefined)?.[HOST_EVENTS[host][0]];
  if (!Array.isArray(list)) return undefined;
  for (const g of list as { hooks?: { type?: string; command?: string }[] }[])
    for (const h of g?.hooks ?? []) if (isGantryHandler(h) && h.type === 'command') return h.command;
  return undefined;
}

/** For each agent whose folder exists: is Gantry's hook installed, and does the installed command answer? */
export function checkInstalledHooks(home: string, cwd: string, env: Env): Finding[] {
  const out: Finding[] = [];
  for (const host of ['claude', 'gemini', 'codex'] as const) {
    const dir = host === 'claude' ? '.claude' : host === 'gemini' ? '.gemini' : '.codex';
    const label = host === 'claude' ? 'Claude Code' : host === 'gemini' ? 'Gemini CLI' : 'Codex';
    const userDir = host === 'codex' ? codexHome(home, env) : path.join(home, dir);
    if (!existsSync(userDir) && !existsSync(path.join(cwd, dir))) continue;
    const files =
      host === 'codex'
        ? [path.join(userDir, 'hooks.json'), path.join(cwd, dir, 'hooks.json')]
        : [
            path.join(userDir, 'settings.json'),
            path.join(cwd, dir, 'settings.json'),
            path.join(cwd, dir, 'settings.local.json'),
          ];
    const withHook = files.find((f) => {
      const s = readJson(f);
      return s !== undefined && hasGantryHook(s, host);
    });
    if (!withHook) {
      out.push({
        kind: 'problem',
        text: `${label} is set up here but Gantry's hook is not installed`,
        fix: `gantry install --${host}`,
      });
      continue;
    }
    const command = installedCommand(readJson(withHook) ?? {}, host);
    if (!command) {
      out.push({ kind: 'ok', text: `${label}: Gantry's HTTP hook is installed in ${withHook}` });
      continue;
    }
    // Codex's hook answers only denies (--deny-only): probe it with a command the floor refuses.
    const probe = JSON.stringify({
      hook_event_name: HOST_EVENTS[host][0],
      tool_name: host === 'gemini' ? 'run_shell_command' : 'Bash',
      tool_input: { command: host === 'codex' ? 'rm -rf /' : 'true' },
      cwd,
    });
    const r = spawnSync('/bin/sh', ['-c', command], {
      input: probe,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...env, GANTRY_HOOK_LOG: 'off', GANTRY_HOOK_DAEMON: '0' },
    });
    let decision: string | undefined;
    try {
      decision = JSON.parse(r.stdout).hookSpecificOutput?.permissionDecision;
    } catch {
      decision = undefined;
    }
    out.push(
      decision
        ? {
            kind: 'ok',
            text: `${label}: hook installed in ${withHook} and answering (${command} → ${decision})`,
          }
        : {
            kind: 'problem',
            text: `${label}: the hook installed in ${withHook} does not answer (${command}: exit ${r.status}${r.stderr ? `, ${r.stderr.trim().split('\n')[0]}` : ''})`,
            fix: `reinstall: gantry install --${host}`,
          },
    );
  }
  if (out.length === 0)
    out.push({
      kind: 'ok',
      text: 'no Claude Code, Gemini CLI or Codex folder found; nothing to check for installed hooks',
    });
  return out;
}

/** In a git checkout: the built bundles match the sources (a stale bundle is named, never used silently). */
export async function checkBundle(root: string): Promise<Finding[]> {
  const script = path.join(root, 'scripts', 'build-inputs.cjs');
  if (!existsSync(path.join(root, '.git')) || !existsSync(script))
    return [{ kind: 'ok', text: 'installed package: the bundles are the ones published' }];
  const { staleReason } = (await import(script)) as { staleReason: (r: string) => string | undefined };
  const reason = staleReason(root);
  return reason
    ? [
        {
          kind: 'problem',
          text: `the built bundles do not match the sources: ${reason}`,
          fix: `npm run build in ${root} (bin/gantry.js also rebuilds before running)`,
        },
      ]
    : [{ kind: 'ok', text: 'the built bundles match the sources' }];
}
