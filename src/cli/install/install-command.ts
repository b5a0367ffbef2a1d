/**
 * `gantry install` / `gantry uninstall` (docs/guard.md "Install"): adds Gantry's hook to an agent's
 * settings file, or removes exactly what it added.
 *
 * - Hosts: `--claude` (default; `~/.claude/settings.json`, `.claude/settings.json`,
 *   `.claude/settings.local.json`) and `--gemini` (`~/.gemini/settings.json`,
 *   `.gemini/settings.json`) and `--codex` (`$CODEX_HOME/hooks.json`, default `~/.codex/hooks.json`,
 *   and `.codex/hooks.json`: Claude Code's hook shape; the command gets `--deny-only`, as Codex
 *   takes only a block from a hook, and Codex lists a new hook as untrusted until the user reviews
 *   it).
 * - Scope: `--user` (default), `--project`, `--local` (Claude Code only).
 * - The file keeps everything else as it was (keys in order, other hooks, its indentation); a
 *   backup `<file>.gantry-backup` is written first; the write is atomic; the diff is printed.
 *   `--dry-run` prints the diff and writes nothing. A settings file that does not parse is never
 *   touched (exit 3).
 * - The hook command never depends on a clone's path when Gantry is installed as a package:
 *   `gantry hook` when `gantry` on PATH is this package, else `npx --no-install gantry hook`; a git
 *   checkout uses `node <checkout>/bin/gantry.js hook`.
 *
 * Exit codes: 0 done (or nothing to do), 3 usage error or unusable settings file.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTwoFilesPatch } from 'diff';
import { findOnPath } from '../../tools/ripgrep/resolve-ripgrep.js';
import { addGantryHooks, gantryHandlers, type HostAgent, removeGantryHooks } from './hook-entries.js';

export interface InstallCliOptions {
  claude?: boolean;
  gemini?: boolean;
  codex?: boolean;
  user?: boolean;
  project?: boolean;
  local?: boolean;
  http?: boolean;
  port?: string;
  dryRun?: boolean;
  /** Tests: home and project directories, and the hook command. */
  home?: string;
  cwd?: string;
  command?: string;
  /** Environment read for `CODEX_HOME` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

type Out = (s: string) => void;

/** The package root: the nearest directory above this module whose package.json is Gantry's. */
export function packageRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'gantry') return dir;
    } catch {
      // keep walking up
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the gantry package root');
    dir = up;
  }
}

/** The command a host runs for every tool call. */
export function hookCommand(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const root = packageRoot();
  const bin = path.join(root, 'bin', 'gantry.js');
  const installed = root.split(path.sep).includes('node_modules') || !existsSync(path.join(root, '.git'));
  if (!installed) return `node ${JSON.stringify(bin)} hook`;
  const onPath = findOnPath('gantry', env.PATH);
  try {
    if (onPath && realpathSync(onPath) === realpathSync(bin)) return 'gantry hook';
  } catch {
    // fall through to npx
  }
  return 'npx --no-install gantry hook';
}

/** Codex's user folder: `CODEX_HOME`, default `~/.codex`. */
export function codexHome(home: string, env: Readonly<Record<string, string | undefined>>): string {
  return env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex');
}

function targetFile(
  host: HostAgent,
  scope: 'user' | 'project' | 'local',
  home: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (host === 'codex')
    return scope === 'user'
      ? path.join(codexHome(home, env), 'hooks.json')
      : path.join(cwd, '.codex', 'hooks.json');
  const dir = host === 'claude' ? '.claude' : '.gemini';
  if (scope === 'user') return path.join(home, dir, 'settings.json');
  if (scope === 'project') return path.join(cwd, dir, 'settings.json');
  return path.join(cwd, dir, 'settings.local.json');
}

function detectIndent(text: string): number | string {
  const m = /^\{\s*\n([ \t]+)"/.exec(text);
  if (!m) return 2;
  return (m[1] as string).includes('\t') ? '\t' : (m[1] as string).length;
}

interface Target {
  host: HostAgent;
  file: string;
}

function resolveTarget(o: InstallCliOptions, err: Out): Target | undefined {
  if ([o.claude, o.gemini, o.codex].filter(Boolean).length > 1) {
    err('gantry install: choose one host (--claude, --gemini or --codex)\n');
    return undefined;
  }
  const host: HostAgent = o.gemini ? 'gemini' : o.codex ? 'codex' : 'claude';
  if (host === 'codex' && o.http) {
    err(
      'gantry install: Codex runs command hooks only, not HTTP hooks; install without --http (the command hook uses the resident server anyway)\n',
    );
    return undefined;
  }
  const scopes = (['user', 'project', 'local'] as const).filter((s) => o[s]);
  if (scopes.length > 1) {
    err('gantry install: choose one scope (--user, --project or --local)\n');
    return undefined;
  }
  const scope = scopes[0] ?? 'user';
  if (scope === 'local' && host !== 'claude') {
    err(
      `gantry install: ${host === 'gemini' ? 'Gemini CLI has no local settings file' : 'Codex has no local hooks file'}; use --user or --project\n`,
    );
    return undefined;
  }
  return {
    host,
    file: targetFile(host, scope, o.home ?? homedir(), o.cwd ?? process.cwd(), o.env ?? process.env),
  };
}

function readSettings(file: string, err: Out): { text: string; value: Record<string, unknown> } | undefined {
  if (!existsSync(file)) return { text: '', value: {} };
  const text = readFileSync(file, 'utf8');
  if (!text.trim()) return { text, value: {} };
  try {
    const v: unknown = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v))
      throw new Error('the top level is not a JSON object');
    return { text, value: v as Record<string, unknown> };
  } catch (e) {
    err(`gantry: ${file} does not parse (${(e as Error).message}); fix it first — it was not changed\n`);
    return undefined;
  }
}

function writeAtomically(file: string, text: string, hadFile: boolean): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const mode = hadFile ? statSync(file).mode & 0o777 : 0o644;
  if (hadFile) copyFileSync(file, `${file}.gantry-backup`);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.gantry-tmp-${process.pid}`);
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, file);
}

async function apply(
  verb: 'install' | 'uninstall',
  o: InstallCliOptions,
  out: Out,
  err: Out,
  change: (v: Record<string, unknown>, host: HostAgent) => Record<string, unknown>,
): Promise<number> {
  const target = resolveTarget(o, err);
  if (!target) return 3;
  const current = readSettings(target.file, err);
  if (!current) return 3;
  const next = change(current.value, target.host);
  if (JSON.stringify(next) === JSON.stringify(current.value)) {
    out(
      `gantry ${verb}: nothing to do in ${target.file} (${verb === 'install' ? 'already installed' : 'no Gantry hook there'})\n`,
    );
    return 0;
  }
  const text = `${JSON.stringify(next, null, detectIndent(current.text))}\n`;
  out(createTwoFilesPatch(target.file, target.file, current.text, text, 'before', 'after'));
  if (o.dryRun) {
    out(`gantry ${verb}: dry run, ${target.file} not changed\n`);
    return 0;
  }
  const hadFile = existsSync(target.file);
  writeAtomically(target.file, text, hadFile);
  out(
    `gantry ${verb}: ${verb === 'install' ? 'hook added to' : 'hook removed from'} ${target.file}${hadFile ? ` (backup: ${target.file}.gantry-backup)` : ''}\n`,
  );
  if (verb === 'install' && target.host === 'codex')
    out(
      'Codex lists a new hook as untrusted until you review it: accept it in the hooks review Codex shows at start-up. Gantry blocks what it denies; what it would ask is left to Codex\'s approval policy (docs/guard.md "Codex").\n',
    );
  return 0;
}

export function runInstall(
  o: InstallCliOptions,
  out: Out = (s) => process.stdout.write(s),
  err: Out = (s) => process.stderr.write(s),
): Promise<number> {
  const port = o.port === undefined ? 7477 : Number(o.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    err(`gantry install: --port must be an integer from 1 to 65535, got ${o.port}\n`);
    return Promise.resolve(3);
  }
  const command = o.command ?? hookCommand();
  return apply('install', o, out, err, (v, host) =>
    addGantryHooks(
      v,
      host,
      gantryHandlers({
        command: host === 'codex' ? `${command} --deny-only` : command,
        ...(o.http ? { http: { port } } : {}),
      }),
    ),
  );
}

export function runUninstall(
  o: InstallCliOptions,
  out: Out = (s) => process.stdout.write(s),
  err: Out = (s) => process.stderr.write(s),
): Promise<number> {
  return apply('uninstall', o, out, err, (v) => removeGantryHooks(v));
}
