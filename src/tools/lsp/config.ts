/**
 * Language-server configuration (docs/lsp.md): the `lspServers` settings key, checked into
 * {@link LspServerConfig}s, and the choice of the server for a file.
 *
 * Shape (one entry per server, by name), close to the `.lsp.json` file of Claude Code's
 * code-intelligence plugins (Claude Code documentation, "Plugins reference", LSP servers):
 *
 * ```json
 * { "lspServers": { "typescript": {
 *     "command": "typescript-language-server", "args": ["--stdio"],
 *     "extensionToLanguage": { ".ts": "typescript", ".tsx": "typescriptreact" },
 *     "filePatterns": ["**\/*.mts"], "languageId": "typescript",
 *     "env": {}, "initializationOptions": {}, "settings": {},
 *     "workspaceFolder": ".", "startupTimeoutMs": 30000, "shutdownTimeoutMs": 3000,
 *     "requestTimeoutMs": 30000, "restartOnCrash": true, "maxRestarts": 3 } } }
 * ```
 *
 * `startupTimeout` / `shutdownTimeout` (the plugin file's names, also milliseconds) are accepted for
 * `startupTimeoutMs` / `shutdownTimeoutMs`. A server needs `command` and at least one of
 * `extensionToLanguage` / `filePatterns`; an entry that fails a check is dropped with a problem
 * naming the field (the other entries stay).
 */
import path from 'node:path';
import picomatch from 'picomatch';

/** Defaults, in milliseconds unless named otherwise. */
export const LSP_DEFAULTS = {
  startupTimeoutMs: 30_000,
  shutdownTimeoutMs: 3_000,
  requestTimeoutMs: 30_000,
  maxRestarts: 3,
  /**
   * How long after an edit to wait for the server's diagnostics of the file. Some servers
   * (typescript-language-server) publish only when a file's diagnostics change, so an edit that
   * leaves a clean file clean waits this long for nothing: keep it short.
   */
  diagnosticsTimeoutMs: 2_000,
} as const;

/** One language server, checked. */
export interface LspServerConfig {
  /** The settings key (`typescript`); the session resource is `lsp:<name>`. */
  name: string;
  /** Program to run (looked up on `PATH`; a relative path with a `/` is taken from the project root). */
  command: string;
  args: string[];
  /** Extra environment of the server process (over the session's). */
  env: Record<string, string>;
  /** File extension (with the dot, lower case) → LSP language id. */
  extensionToLanguage: Record<string, string>;
  /** Globs (picomatch, relative to the workspace folder) of further files the server handles. */
  filePatterns: string[];
  /** Language id of files matched by `filePatterns` only (default: the server's name). */
  languageId: string;
  /** Sent as `initializationOptions` of `initialize`. */
  initializationOptions?: unknown;
  /** Answered to `workspace/configuration` and sent with `workspace/didChangeConfiguration`. */
  settings?: Record<string, unknown>;
  /** The workspace folder, absolute (default: the project root). */
  workspaceFolder: string;
  startupTimeoutMs: number;
  shutdownTimeoutMs: number;
  requestTimeoutMs: number;
  /** Start the server again on the next use after it exited on its own. */
  restartOnCrash: boolean;
  /** Restarts allowed in one session. */
  maxRestarts: number;
  diagnosticsTimeoutMs: number;
}

/** A configuration problem (a dropped entry or field), for the session's warnings. */
export interface LspConfigProblem {
  server?: string;
  message: string;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function positiveMs(
  raw: Record<string, unknown>,
  keys: readonly string[],
  fallback: number,
  problems: string[],
): number {
  for (const key of keys) {
    if (!Object.hasOwn(raw, key)) continue;
    const v = raw[key];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.round(v);
    problems.push(`${key} must be a positive number of milliseconds`);
    return fallback;
  }
  return fallback;
}

function stringRecord(v: unknown): Record<string, string> | undefined {
  if (!isObj(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string') return undefined;
    out[k] = value;
  }
  return out;
}

/**
 * Checks one server entry. Returns the config, or the reasons it was dropped.
 * @param projectRoot - absolute; `workspaceFolder` resolves against it.
 */
export function parseLspServer(
  name: string,
  raw: unknown,
  projectRoot: string,
): { config?: LspServerConfig; problems: string[] } {
  const problems: string[] = [];
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name))
    return { problems: ['the server name may contain only letters, digits, ".", "_" and "-"'] };
  if (!isObj(raw)) return { problems: ['the entry must be an object'] };
  if (typeof raw.command !== 'string' || raw.command.trim() === '')
    return { problems: ['"command" must be a non-empty string'] };
  const args = raw.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
    return { problems: ['"args" must be an array of strings'] };
  const env = raw.env === undefined ? {} : stringRecord(raw.env);
  if (!env) return { problems: ['"env" must map names to strings'] };
  const mapping = raw.extensionToLanguage === undefined ? {} : stringRecord(raw.extensionToLanguage);
  if (!mapping) return { problems: ['"extensionToLanguage" must map extensions (".ts") to language ids'] };
  const extensionToLanguage: Record<string, string> = {};
  for (const [ext, lang] of Object.entries(mapping)) {
    const key = (ext.startsWith('.') ? ext : `.${ext}`).toLowerCase();
    if (key === '.' || lang.trim() === '') return { problems: [`"extensionToLanguage": bad entry "${ext}"`] };
    extensionToLanguage[key] = lang;
  }
  const patterns = raw.filePatterns ?? [];
  if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === 'string' && p !== ''))
    return { problems: ['"filePatterns" must be an array of glob strings'] };
  if (!Object.keys(extensionToLanguage).length && !patterns.length)
    return {
      problems: ['give "extensionToLanguage" or "filePatterns": which files does the server handle?'],
    };
  if (raw.settings !== undefined && !isObj(raw.settings))
    return { problems: ['"settings" must be an object'] };
  if (raw.workspaceFolder !== undefined && typeof raw.workspaceFolder !== 'string')
    return { problems: ['"workspaceFolder" must be a path'] };
  const languageId = typeof raw.languageId === 'string' && raw.languageId ? raw.languageId : name;
  const maxRestartsRaw = raw.maxRestarts;
  let maxRestarts: number = LSP_DEFAULTS.maxRestarts;
  if (maxRestartsRaw !== undefined) {
    if (typeof maxRestartsRaw === 'number' && Number.isInteger(maxRestartsRaw) && maxRestartsRaw >= 0)
      maxRestarts = maxRestartsRaw;
    else problems.push('"maxRestarts" must be a whole number ≥ 0');
  }
  if (raw.restartOnCrash !== undefined && typeof raw.restartOnCrash !== 'boolean')
    problems.push('"restartOnCrash" must be true or false');
  const config: LspServerConfig = {
    name,
    command: raw.command,
    args: args as string[],
    env,
    extensionToLanguage,
    filePatterns: patterns as string[],
    languageId,
    ...(raw.initializationOptions !== undefined ? { initializationOptions: raw.initializationOptions } : {}),
    ...(isObj(raw.settings) ? { settings: raw.settings } : {}),
    workspaceFolder: path.resolve(projectRoot, (raw.workspaceFolder as string | undefined) ?? '.'),
    startupTimeoutMs: positiveMs(
      raw,
      ['startupTimeoutMs', 'startupTimeout'],
      LSP_DEFAULTS.startupTimeoutMs,
      problems,
    ),
    shutdownTimeoutMs: positiveMs(
      raw,
      ['shutdownTimeoutMs', 'shutdownTimeout'],
      LSP_DEFAULTS.shutdownTimeoutMs,
      problems,
    ),
    requestTimeoutMs: positiveMs(raw, ['requestTimeoutMs'], LSP_DEFAULTS.requestTimeoutMs, problems),
    restartOnCrash: raw.restartOnCrash !== false,
    maxRestarts,
    diagnosticsTimeoutMs: positiveMs(
      raw,
      ['diagnosticsTimeoutMs'],
      LSP_DEFAULTS.diagnosticsTimeoutMs,
      problems,
    ),
  };
  return { config, problems };
}

/** Checks a whole `lspServers` object; bad entries are dropped with a problem each. */
export function parseLspServers(
  raw: unknown,
  projectRoot: string,
): { servers: LspServerConfig[]; problems: LspConfigProblem[] } {
  const servers: LspServerConfig[] = [];
  const problems: LspConfigProblem[] = [];
  if (raw === undefined) return { servers, problems };
  if (!isObj(raw))
    return { servers, problems: [{ message: '"lspServers" must be an object of servers by name' }] };
  for (const [name, entry] of Object.entries(raw)) {
    const parsed = parseLspServer(name, entry, projectRoot);
    for (const message of parsed.problems) problems.push({ server: name, message });
    if (parsed.config) servers.push(parsed.config);
  }
  return { servers, problems };
}

/** The server for a file and the language id to open it with. */
export interface LspServerMatch {
  server: LspServerConfig;
  languageId: string;
}

/**
 * The first server (in configuration order) that handles `file` (absolute): by extension, then by
 * `filePatterns` for files inside the server's workspace folder (a pattern with a `/` matches the
 * path relative to that folder, one without matches the file name at any depth, as in gitignore).
 * Undefined when none does.
 */
export function serverForFile(servers: readonly LspServerConfig[], file: string): LspServerMatch | undefined {
  const ext = path.extname(file).toLowerCase();
  for (const server of servers) {
    const lang = ext ? server.extensionToLanguage[ext] : undefined;
    if (lang) return { server, languageId: lang };
  }
  for (const server of servers) {
    if (!server.filePatterns.length) continue;
    const rel = path.relative(server.workspaceFolder, file).split(path.sep).join('/');
    if (rel === '' || rel.startsWith('../') || path.isAbsolute(rel)) continue;
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const hit = server.filePatterns.some((pattern) =>
      pattern.includes('/')
        ? picomatch(pattern, { dot: true })(rel)
        : picomatch(pattern, { dot: true })(base),
    );
    if (hit) return { server, languageId: server.languageId };
  }
  return undefined;
}

/** The configured servers and their file types, for the tool's description and errors. */
export function describeLspServers(servers: readonly LspServerConfig[]): string {
  if (!servers.length) return 'none';
  return servers
    .map((s) => `${s.name} (${[...Object.keys(s.extensionToLanguage), ...s.filePatterns].join(', ')})`)
    .join('; ');
}
