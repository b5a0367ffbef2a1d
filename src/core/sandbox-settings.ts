/**
 * The `sandbox` settings object (the Claude Code sandboxing docs), shared by the settings loader in
 * `permissions/` (which loads and merges it next to `permissions`) and the OS sandbox in
 * `sandbox/` (which enforces it). Pure types, a zod schema, defaults and a merge; no I/O.
 *
 * Shape as written in a settings file (every key optional; unknown keys kept, so Claude Code's
 * files load unchanged):
 * ```jsonc
 * "sandbox": {
 *   "enabled": true,
 *   "autoAllowBashIfSandboxed": true,
 *   "allowUnsandboxedCommands": true,      // honour dangerouslyDisableSandbox; false = strict
 *   "failIfUnavailable": false,            // true: refuse when bubblewrap cannot start
 *   "excludedCommands": ["docker *"],      // Bash-rule patterns run outside the sandbox
 *   "filesystem": { "allowWrite": [], "denyWrite": [], "denyRead": [], "allowRead": [] },
 *   "network": { "allowedDomains": ["registry.npmjs.org", "*.github.com", "127.0.0.1:8080"],
 *                "deniedDomains": [], "allowLocalBinding": false },
 *   "bwrapPath": "/usr/bin/bwrap", "socatPath": "/usr/bin/socat"
 * }
 * ```
 * Path prefixes (the Claude Code sandboxing docs) are NOT permission-rule anchors: `/x` absolute, `~/x` home, `./x` or
 * bare relative to the settings root (see {@link resolveSandboxPath}).
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

/**
 * zod is loaded on first use, not at import: the settings loader sits on `gantry hook`'s start-up
 * path (every tool call of the host), where importing zod costs more than the whole decision, and
 * most settings files have no `sandbox` key. `createRequire` gives a synchronous load of zod's
 * CommonJS build.
 */
function buildSchema() {
  const { z } = createRequire(import.meta.url)('zod') as typeof Zod;
  const stringList = z.array(z.string());
  return z.looseObject({
    enabled: z.boolean().optional(),
    autoAllowBashIfSandboxed: z.boolean().optional(),
    allowUnsandboxedCommands: z.boolean().optional(),
    failIfUnavailable: z.boolean().optional(),
    excludedCommands: stringList.optional(),
    filesystem: z
      .looseObject({
        allowWrite: stringList.optional(),
        denyWrite: stringList.optional(),
        denyRead: stringList.optional(),
        allowRead: stringList.optional(),
      })
      .optional(),
    network: z
      .looseObject({
        allowedDomains: stringList.optional(),
        deniedDomains: stringList.optional(),
        allowLocalBinding: z.boolean().optional(),
        allowPrivateNetworks: z.boolean().optional(),
      })
      .optional(),
    bwrapPath: z.string().optional(),
    socatPath: z.string().optional(),
  });
}

let schema: ReturnType<typeof buildSchema> | undefined;

/** Zod schema of the `sandbox` object as written in one settings file (built on first use). Unknown keys pass through. */
export const SandboxSettingsInputSchema = {
  parse: (value: unknown) => (schema ??= buildSchema()).parse(value),
  safeParse: (value: unknown) => (schema ??= buildSchema()).safeParse(value),
};

/** The `sandbox` object of one settings file, as parsed. */
export type SandboxSettingsInput = Zod.infer<ReturnType<typeof buildSchema>>;

/** Effective sandbox settings: every key present (defaults filled, sources merged). */
export interface SandboxSettings {
  /** Run Bash commands sandboxed. Default false. */
  enabled: boolean;
  /**
   * Approve sandboxed Bash commands that would otherwise ask (deny rules, content-scoped ask rules
   * and protected paths still hold; the Claude Code sandboxing docs). Default false (TYPES 2.1.332; DOC 2.1.240 said true).
   */
  autoAllowBashIfSandboxed: boolean;
  /** Honour `dangerouslyDisableSandbox` (that call then goes through the normal prompt). Default true. */
  allowUnsandboxedCommands: boolean;
  /** Refuse to run when the sandbox cannot start, even if unsandboxed commands are allowed. Default false. */
  failIfUnavailable: boolean;
  /** Bash-rule patterns (`docker *`, `npm run e2e:*`) that run outside the sandbox. */
  excludedCommands: string[];
  filesystem: {
    /** Extra writable paths beyond the working directories and the session temp dir. */
    allowWrite: string[];
    /** Paths never writable, even inside a writable area. */
    denyWrite: string[];
    /** Paths made unreadable; added to {@link DEFAULT_SANDBOX_DENY_READ}. */
    denyRead: string[];
    /** Re-allow reads inside a denied region (the more specific path wins). */
    allowRead: string[];
  };
  network: {
    /** Hosts reachable through the sandbox proxy: `example.com`, `*.example.com`, `127.0.0.1:8080`, `[::1]:443`. */
    allowedDomains: string[];
    /** Hosts always refused; wins over `allowedDomains`. */
    deniedDomains: string[];
    /** May a sandboxed command listen on its own (private) loopback. Default false. */
    allowLocalBinding: boolean;
    /**
     * May an allowed wildcard name resolve into a private network (10/8, 172.16/12, 192.168/16,
     * 100.64/10)? Default false: only exactly listed hosts reach them (the machine's own addresses
     * are never reached through a name).
     */
    allowPrivateNetworks?: boolean;
  };
  /** bubblewrap binary; default `bwrap` on PATH. */
  bwrapPath?: string;
  /** socat binary; default `socat` on PATH. */
  socatPath?: string;
}

/**
 * Credential locations unreadable inside the sandbox whatever the settings say (union with
 * `filesystem.denyRead`; `allowRead` can re-open a sub-path).
 */
export const DEFAULT_SANDBOX_DENY_READ: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.config/gcloud',
  '~/.azure',
  '~/.kube',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.git-credentials',
  '~/.config/gh',
  '~/.pypirc',
  '~/.password-store',
  '~/.vault-token',
  '~/.terraform.d/credentials.tfrc.json',
  '~/.claude/.credentials.json',
  '~/.gantry/.credentials.json',
];

/** The effective settings when no file says anything. */
export function defaultSandboxSettings(): SandboxSettings {
  return {
    enabled: false,
    autoAllowBashIfSandboxed: false,
    allowUnsandboxedCommands: true,
    failIfUnavailable: false,
    excludedCommands: [],
    filesystem: { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [] },
    network: { allowedDomains: [], deniedDomains: [], allowLocalBinding: false, allowPrivateNetworks: false },
  };
}

function union(lists: (string[] | undefined)[]): string[] {
  const out: string[] = [];
  for (const l of lists) for (const s of l ?? []) if (!out.includes(s)) out.push(s);
  return out;
}

function firstDefined<T>(values: (T | undefined)[], fallback: T): T {
  for (const v of values) if (v !== undefined) return v;
  return fallback;
}

/**
 * Merges the `sandbox` objects of several settings sources into effective settings (the Claude Code sandboxing docs):
 * scalars from the highest-precedence source that sets them, arrays as a union (order kept,
 * duplicates dropped).
 *
 * @param sources - highest precedence first (managed, CLI, local, project, user). Paths inside
 *   should already be absolute (see {@link resolveSandboxPaths}); relative ones are resolved by the
 *   sandbox against the project root.
 */
export function mergeSandboxSettings(sources: readonly SandboxSettingsInput[]): SandboxSettings {
  const d = defaultSandboxSettings();
  const fs = sources.map((s) => s.filesystem);
  const net = sources.map((s) => s.network);
  const merged: SandboxSettings = {
    enabled: firstDefined(
      sources.map((s) => s.enabled),
      d.enabled,
    ),
    autoAllowBashIfSandboxed: firstDefined(
      sources.map((s) => s.autoAllowBashIfSandboxed),
      d.autoAllowBashIfSandboxed,
    ),
    allowUnsandboxedCommands: firstDefined(
      sources.map((s) => s.allowUnsandboxedCommands),
      d.allowUnsandboxedCommands,
    ),
    failIfUnavailable: firstDefined(
      sources.map((s) => s.failIfUnavailable),
      d.failIfUnavailable,
    ),
    excludedCommands: union(sources.map((s) => s.excludedCommands)),
    filesystem: {
      allowWrite: union(fs.map((f) => f?.allowWrite)),
      denyWrite: union(fs.map((f) => f?.denyWrite)),
      denyRead: union(fs.map((f) => f?.denyRead)),
      allowRead: union(fs.map((f) => f?.allowRead)),
    },
    network: {
      allowedDomains: union(net.map((n) => n?.allowedDomains)),
      deniedDomains: union(net.map((n) => n?.deniedDomains)),
      allowLocalBinding: firstDefined(
        net.map((n) => n?.allowLocalBinding),
        d.network.allowLocalBinding,
      ),
      allowPrivateNetworks: firstDefined(
        net.map((n) => n?.allowPrivateNetworks),
        d.network.allowPrivateNetworks,
      ),
    },
  };
  const bwrapPath = firstDefined<string | undefined>(
    sources.map((s) => s.bwrapPath),
    undefined,
  );
  const socatPath = firstDefined<string | undefined>(
    sources.map((s) => s.socatPath),
    undefined,
  );
  if (bwrapPath !== undefined) merged.bwrapPath = bwrapPath;
  if (socatPath !== undefined) merged.socatPath = socatPath;
  return merged;
}

/**
 * Resolves one sandbox path setting (the Claude Code sandboxing docs): `/x` absolute, `~` / `~/x` under `home`,
 * `./x` or bare `x` relative to `root` (the project root for project settings, the settings
 * directory for user settings). A `//x` prefix (permission-rule style) is read as absolute.
 */
export function resolveSandboxPath(p: string, opts: { root: string; home: string }): string {
  if (p === '~') return opts.home;
  if (p.startsWith('~/')) return path.join(opts.home, p.slice(2));
  if (p.startsWith('//')) return path.resolve(p.slice(1));
  return path.resolve(opts.root, p);
}

/** Returns a copy of one source's `sandbox` object with its filesystem paths made absolute. */
export function resolveSandboxPaths(
  input: SandboxSettingsInput,
  opts: { root: string; home: string },
): SandboxSettingsInput {
  if (!input.filesystem) return input;
  const r = (l: string[] | undefined) => l?.map((p) => resolveSandboxPath(p, opts));
  const f = input.filesystem;
  return {
    ...input,
    filesystem: {
      ...f,
      allowWrite: r(f.allowWrite),
      denyWrite: r(f.denyWrite),
      denyRead: r(f.denyRead),
      allowRead: r(f.allowRead),
    },
  };
}
