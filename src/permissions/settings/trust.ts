/**
 * Workspace trust (the Claude Code permissions docs "Workspace trust"): project-supplied settings (`.claude/settings.json`,
 * `.claude/settings.local.json`, and the same under `.gantry/`) may *widen* permissions only in a
 * trusted folder. Deny and ask rules, and every other narrowing setting, apply always.
 *
 * A folder is trusted when, first match wins:
 * 1. the caller says so (`trust: true`, e.g. `gantry … --trust`), or `false` to force distrust;
 * 2. `GANTRY_TRUST_PROJECT=1` (or `0` to force distrust) is set in the environment;
 * 3. `~/.gantry/trusted.json` lists it or an ancestor: `{"trustedFolders": ["/abs/dir", "~/src"]}`;
 * 4. Claude Code recorded the trust dialog for it: `~/.claude.json` →
 *    `projects["<abs dir>"].hasTrustDialogAccepted === true` (so an existing setup works unchanged).
 * Otherwise it is untrusted. Local settings count as project-supplied: a repository can ship a
 * `settings.local.json`, and we cannot tell a tracked one from the user's own without running git.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getOwn } from '../../core/get-own.js';
import { isPathInside } from '../../core/paths.js';

export interface TrustOptions {
  projectRoot: string;
  home: string;
  explicit?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
}

export interface TrustResult {
  trusted: boolean;
  reason: string;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Decides whether project-supplied settings may widen permissions (see module doc). */
export function resolveTrust(opts: TrustOptions): TrustResult {
  const root = path.resolve(opts.projectRoot);
  if (opts.explicit !== undefined)
    return {
      trusted: opts.explicit,
      reason: opts.explicit ? 'trusted by the caller (--trust)' : 'distrusted by the caller',
    };
  const env = opts.env?.GANTRY_TRUST_PROJECT;
  if (env === '1' || env === 'true') return { trusted: true, reason: 'GANTRY_TRUST_PROJECT=1' };
  if (env === '0' || env === 'false') return { trusted: false, reason: 'GANTRY_TRUST_PROJECT=0' };
  const gantryFile = path.join(opts.home, '.gantry', 'trusted.json');
  const list = (readJson(gantryFile) as { trustedFolders?: unknown } | undefined)?.trustedFolders;
  if (Array.isArray(list)) {
    for (const entry of list) {
      if (typeof entry !== 'string' || entry.trim() === '') continue;
      const dir = entry.startsWith('~/') ? path.join(opts.home, entry.slice(2)) : path.resolve(entry);
      if (isPathInside(root, dir)) return { trusted: true, reason: `listed in ${gantryFile} (${entry})` };
    }
  }
  const claudeFile = path.join(opts.home, '.claude.json');
  const projects = (
    readJson(claudeFile) as { projects?: Record<string, { hasTrustDialogAccepted?: unknown }> }
  )?.projects;
  if (projects && typeof projects === 'object' && getOwn(projects, root)?.hasTrustDialogAccepted === true)
    return { trusted: true, reason: `trust dialog accepted in Claude Code (${claudeFile})` };
  return {
    trusted: false,
    reason: `folder not trusted (add it to ${gantryFile} "trustedFolders", pass --trust, or set GANTRY_TRUST_PROJECT=1)`,
  };
}
