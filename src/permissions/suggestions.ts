/**
 * "Always allow" suggestions for an ask (the Claude Code permissions docs "Don't ask again"), narrowed the way
 * users expect:
 *
 * - Bash: one `Bash(<prefix>:*)` per sub-command that needed approval (at most 5), the prefix cut
 *   by a command-arity table in the style of opencode's BashArity (`git checkout -b x` →
 *   `git checkout:*`, `npm run dev --port 1` → `npm run dev:*`, `docker compose up -d` →
 *   `docker compose up:*`); a flag before the arity is reached, or an interpreter with inline code,
 *   gives the exact command instead.
 * - File tools: a path glob on the file's directory — `Edit(./src/**)` inside the project,
 *   `Read(//abs/dir/**)` outside it.
 * - WebFetch: `WebFetch(domain:<host>)`; MCP and other tools: the tool name.
 *
 * Accepting one persists it with `persistRule` (settings/persist.ts) to `.claude/settings.local.json`.
 */
import path from 'node:path';
import { getOwn } from '../core/get-own.js';
import { isPathInside } from '../core/paths.js';
import type { PermissionSuggestion, SubcommandInfo } from '../core/permission-types.js';
import type { CallView } from './call-view.js';
import { hostOf } from './rules/domain-pattern.js';
import { isExemptDevicePath } from './working-dirs.js';

/** How many leading words name the command (longest prefix wins; default 1). */
export const COMMAND_ARITY: Readonly<Record<string, number>> = {
  git: 2,
  'git stash': 3,
  'git remote': 3,
  'git submodule': 3,
  'git worktree': 3,
  npm: 2,
  'npm run': 3,
  'npm exec': 3,
  pnpm: 2,
  'pnpm run': 3,
  'pnpm exec': 3,
  yarn: 2,
  'yarn run': 3,
  bun: 2,
  'bun run': 3,
  npx: 2,
  pnpx: 2,
  bunx: 2,
  deno: 2,
  'deno task': 3,
  cargo: 2,
  go: 2,
  'go mod': 3,
  pip: 2,
  pip3: 2,
  uv: 2,
  'uv run': 3,
  'uv pip': 3,
  poetry: 2,
  'poetry run': 3,
  python: 2,
  python3: 2,
  'python -m': 3,
  'python3 -m': 3,
  node: 2,
  make: 2,
  docker: 2,
  'docker compose': 3,
  'docker container': 3,
  'docker image': 3,
  kubectl: 2,
  helm: 2,
  terraform: 2,
  gh: 3,
  aws: 3,
  gcloud: 3,
  az: 3,
  brew: 2,
  'apt-get': 2,
  apt: 2,
  dotnet: 2,
  mvn: 2,
  gradle: 2,
  './gradlew': 2,
  rails: 2,
  bundle: 2,
  'bundle exec': 3,
  mix: 2,
  swift: 2,
  systemctl: 2,
};

const INLINE_CODE_FLAGS = new Set(['-c', '-e', '--eval', '-p', '--print']);
const MAX_BASH_SUGGESTIONS = 5;

/** The `prefix:*` (or exact) rule content for one sub-command. */
export function bashRuleFor(sub: SubcommandInfo): string {
  const words = sub.argv;
  if (words.some((w) => INLINE_CODE_FLAGS.has(w))) return sub.text;
  let arity = 1;
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const key = words.slice(0, n).join(' ');
    const a = getOwn(COMMAND_ARITY, key);
    if (a !== undefined) {
      arity = a;
      break;
    }
  }
  const head: string[] = [];
  for (const w of words.slice(0, arity)) {
    if (head.length > 0 && w.startsWith('-') && !(head.length === 1 && w === '-m')) break;
    head.push(w);
  }
  if (head.length < Math.min(arity, words.length)) return sub.text;
  return `${head.join(' ')}:*`;
}

const GITIGNORE_SPECIAL = /[*?[\]!#\\]/g;
const escapeGitignore = (s: string): string => s.replace(GITIGNORE_SPECIAL, '\\$&');

/** A path rule for one file path: `./dir/**` inside the project, `//abs/dir/**` outside. */
export function pathRuleFor(access: 'Read' | 'Edit', absFile: string, projectRoot: string): string {
  const dir = path.dirname(absFile);
  if (isPathInside(absFile, projectRoot)) {
    if (dir === projectRoot) return `${access}(./${escapeGitignore(path.basename(absFile))})`;
    return `${access}(./${escapeGitignore(path.relative(projectRoot, dir))}/**)`;
  }
  return `${access}(/${escapeGitignore(dir)}/**)`;
}

/** Suggestions for an ask on this call (empty when no rule could lift the ask). */
export function suggestRules(view: CallView, projectRoot: string): PermissionSuggestion[] {
  const rules: string[] = [];
  if (view.isShell) {
    for (let i = 0; i < view.subcommands.length && rules.length < MAX_BASH_SUGGESTIONS; i++) {
      const sub = view.subcommands[i] as SubcommandInfo;
      const writes = view.files.some(
        (f) => f.access === 'write' && f.effect.subcommand === i && !isExemptDevicePath(f.resolved, 'write'),
      );
      if (sub.readOnly && !writes) continue;
      if (sub.dynamicProgram || sub.argv.length === 0) continue;
      const r = `${view.toolName}(${bashRuleFor(sub)})`;
      if (!rules.includes(r)) rules.push(r);
    }
  } else if (view.traits.ruleKind === 'domain') {
    const host =
      view.description.ruleContents.map(hostOf).find(Boolean) ??
      view.network.map((e) => hostOf(e.target)).find(Boolean);
    if (host) rules.push(`${view.toolName}(domain:${host})`);
  } else if (view.files.length && !view.isMcp) {
    for (const f of view.files) {
      const r = pathRuleFor(f.access === 'write' ? 'Edit' : 'Read', f.lexical, projectRoot);
      if (!rules.includes(r)) rules.push(r);
    }
  } else rules.push(view.toolName);
  return rules.map((rule) => ({ rule, destination: 'localSettings' }));
}
