/**
 * Protected paths: the one list shared by the permission engine (which judges write effects) and
 * the OS sandbox (which makes the same paths read-only inside writable areas). Pure data plus a
 * path matcher; no I/O.
 *
 * Sources: the Claude Code permissions docs "Protected paths" (never auto-approved), the Claude Code sandboxing docs (always write-protected
 * inside sandbox-writable areas) (credentials denied in every mode; agent and VCS
 * configuration asks even in bypass mode).
 *
 * Two classes:
 * - `deny`: shell/git/package-manager configuration and credentials. Writing them plants code that
 *   runs later outside any sandbox, or leaks secrets.
 * - `ask`: agent and VCS configuration directories (`.claude/`, `.gantry/`, `.git/`, `.vscode/` …).
 */

/** Which decision a protected path forces on a write. */
export type ProtectedPathClass = 'deny' | 'ask';

/** One protected name. */
export interface ProtectedPathEntry {
  /**
   * For `file`: a base name, or a base-name prefix ending in `*` (`.env*`).
   * For `dir`: a directory name or a two-segment path (`.config/git`); everything below it matches.
   */
  name: string;
  kind: 'file' | 'dir';
  class: ProtectedPathClass;
  /** Why it is protected (for explanations). */
  why: string;
}

const SHELL_RC = 'shell start-up file: runs in every new shell';
const PKG = 'package-manager configuration: can run code or redirect installs';
const HOOKS = 'git-hook manager configuration: runs code on git operations';

/** Protected file names, matched against the base name anywhere in a path. */
export const PROTECTED_FILE_ENTRIES: readonly ProtectedPathEntry[] = [
  ...[
    '.bashrc',
    '.bash_profile',
    '.bash_login',
    '.bash_aliases',
    '.bash_logout',
    '.zshrc',
    '.zprofile',
    '.zshenv',
    '.zlogin',
    '.zlogout',
    '.profile',
    '.kshrc',
    '.cshrc',
    '.tcshrc',
  ].map((name) => ({ name, kind: 'file' as const, class: 'deny' as const, why: SHELL_RC })),
  { name: '.gitconfig', kind: 'file', class: 'deny', why: 'git configuration: aliases, hooks path, filters' },
  { name: '.gitmodules', kind: 'file', class: 'ask', why: 'git submodule sources' },
  { name: '.envrc', kind: 'file', class: 'ask', why: 'direnv runs it on cd' },
  // Registry/credential configuration: deny (a redirected registry or a token write is never wanted).
  ...['.npmrc', '.yarnrc', '.yarnrc.yml', '.pypirc'].map((name) => ({
    name,
    kind: 'file' as const,
    class: 'deny' as const,
    why: PKG,
  })),
  // Project files that name programs to run: routinely edited on purpose, so ask (like `.git/hooks`).
  ...[
    '.pnp.cjs',
    '.pnp.loader.mjs',
    '.pnpmfile.cjs',
    'bunfig.toml',
    '.bunfig.toml',
    'gradle-wrapper.properties',
    'maven-wrapper.properties',
  ].map((name) => ({ name, kind: 'file' as const, class: 'ask' as const, why: PKG })),
  ...['.bazelrc', '.bazelversion', '.bazeliskrc'].map((name) => ({
    name,
    kind: 'file' as const,
    class: 'ask' as const,
    why: 'Bazel configuration: selects and configures the build tool',
  })),
  ...['.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml'].map(
    (name) => ({ name, kind: 'file' as const, class: 'ask' as const, why: HOOKS }),
  ),
  { name: '.ripgreprc', kind: 'file', class: 'deny', why: 'ripgrep configuration: can add --pre programs' },
  { name: 'pyrightconfig.json', kind: 'file', class: 'ask', why: 'type-checker configuration' },
  { name: '.devcontainer.json', kind: 'file', class: 'ask', why: 'dev-container definition' },
  { name: '.mcp.json', kind: 'file', class: 'ask', why: 'MCP server definitions: start programs' },
  { name: '.claude.json', kind: 'file', class: 'ask', why: 'agent configuration' },
  { name: '.env*', kind: 'file', class: 'deny', why: 'environment file: usually holds secrets' },
  { name: '.netrc', kind: 'file', class: 'deny', why: 'credentials' },
  { name: '.pgpass', kind: 'file', class: 'deny', why: 'credentials' },
  { name: '.git-credentials', kind: 'file', class: 'deny', why: 'credentials' },
  { name: '.credentials.json', kind: 'file', class: 'deny', why: 'credentials' },
  { name: 'credentials', kind: 'file', class: 'deny', why: 'credentials' },
  { name: 'authorized_keys', kind: 'file', class: 'deny', why: 'SSH login keys' },
  { name: 'authorized_keys2', kind: 'file', class: 'deny', why: 'SSH login keys' },
];

/** Protected directories; everything below them matches. */
export const PROTECTED_DIR_ENTRIES: readonly ProtectedPathEntry[] = [
  { name: '.ssh', kind: 'dir', class: 'deny', why: 'SSH keys and configuration' },
  { name: '.gnupg', kind: 'dir', class: 'deny', why: 'GPG keys' },
  { name: '.git', kind: 'dir', class: 'ask', why: 'git repository: config and hooks run code' },
  { name: '.config/git', kind: 'dir', class: 'ask', why: 'git configuration' },
  { name: '.claude', kind: 'dir', class: 'ask', why: 'agent configuration (settings, hooks, agents)' },
  { name: '.gantry', kind: 'dir', class: 'ask', why: 'agent configuration (settings, hooks, agents)' },
  { name: '.vscode', kind: 'dir', class: 'ask', why: 'editor configuration: tasks run code' },
  { name: '.idea', kind: 'dir', class: 'ask', why: 'editor configuration: run configurations' },
  { name: '.husky', kind: 'dir', class: 'ask', why: 'git hooks' },
  { name: '.aws', kind: 'dir', class: 'deny', why: 'cloud credentials and config' },
  { name: '.kube', kind: 'dir', class: 'deny', why: 'cluster credentials and config' },
  { name: '.docker', kind: 'dir', class: 'deny', why: 'registry credentials and credential helpers' },
  { name: '.config/gh', kind: 'dir', class: 'deny', why: 'GitHub CLI token' },
  { name: '.config/fish', kind: 'dir', class: 'deny', why: SHELL_RC },
  { name: '.cargo', kind: 'dir', class: 'ask', why: 'cargo configuration: build scripts, registries' },
  { name: '.devcontainer', kind: 'dir', class: 'ask', why: 'dev-container definition' },
  { name: '.yarn', kind: 'dir', class: 'ask', why: 'yarn plugins and releases: run code' },
  { name: '.mvn', kind: 'dir', class: 'ask', why: 'maven wrapper and extensions' },
];

/** Sub-paths of protected directories that are NOT protected (the Claude Code permissions docs: `.claude/worktrees`). */
export const PROTECTED_DIR_EXCEPTIONS: readonly string[] = ['.claude/worktrees', '.gantry/worktrees'];

/**
 * Inside `.git`, the sandbox protects only what runs code, so `git commit` still works sandboxed
 * (the Claude Code sandboxing docs: `.git/hooks`, `.git/config`). The permission engine treats all of `.git` as `ask`.
 */
export const SANDBOX_GIT_PROTECTED: readonly string[] = ['hooks', 'config', 'config.worktree'];

/**
 * Top-level names of a bare-repository layout (the Claude Code sandboxing docs "bare-repo planting"): creating
 * `HEAD` + `objects` + `refs` in a working directory makes git treat it as a repository whose
 * `config` can run code.
 */
export const GIT_PLANTING_NAMES: readonly string[] = ['HEAD', 'objects', 'refs', 'config', 'hooks'];

/**
 * `.env.*` variants that hold placeholders by convention and are edited routinely; not protected
 * (agrees with the permission engine's corpus tuning).
 */
export const ENV_TEMPLATE_SUFFIXES: readonly string[] = [
  'example',
  'sample',
  'template',
  'dist',
  'defaults',
  'schema',
];

/**
 * True when base name `base` matches a file entry name: exact, or prefix for `name*`. The `.env*`
 * prefix skips template variants (`.env.example`, `.env.sample.local` …).
 */
export function protectedNameMatches(entryName: string, base: string): boolean {
  if (!entryName.endsWith('*')) return base === entryName;
  if (!base.startsWith(entryName.slice(0, -1))) return false;
  if (entryName === '.env*' && base.startsWith('.env.')) {
    const parts = base.slice(5).toLowerCase().split('.');
    return !parts.some((p) => ENV_TEMPLATE_SUFFIXES.includes(p));
  }
  return true;
}

/** What {@link matchProtectedPath} found. */
export interface ProtectedPathMatch {
  entry: ProtectedPathEntry;
  /** The protected path itself (the file, or the protected directory) — a prefix of the input. */
  protectedPath: string;
}

/**
 * Finds the protected entry a path falls under, anywhere in the path (the Claude Code permissions docs semantics:
 * `/p/sub/.git/config`, `/home/u/.bashrc`, `/p/.env.local`). Directory entries win over file
 * entries (the outermost protected directory is reported).
 *
 * @param absPath - absolute, normalised path (symlinks already resolved by the caller when needed).
 * @returns the match, or undefined when the path is not protected.
 * Contract: pure; POSIX separators.
 */
export function matchProtectedPath(absPath: string): ProtectedPathMatch | undefined {
  const segments = absPath.split('/').filter((s) => s !== '');
  for (let i = 0; i < segments.length; i++) {
    for (const entry of PROTECTED_DIR_ENTRIES) {
      const parts = entry.name.split('/');
      if (parts.every((p, k) => segments[i + k] === p)) {
        const below = segments.slice(i, i + parts.length + 1).join('/');
        if (PROTECTED_DIR_EXCEPTIONS.some((e) => below === e)) continue;
        return { entry, protectedPath: `/${segments.slice(0, i + parts.length).join('/')}` };
      }
    }
  }
  const base = segments[segments.length - 1];
  if (base === undefined) return undefined;
  for (const entry of PROTECTED_FILE_ENTRIES) {
    if (protectedNameMatches(entry.name, base)) return { entry, protectedPath: `/${segments.join('/')}` };
  }
  return undefined;
}
