/**
 * Validating one raw server entry (a value of `mcpServers` in `.mcp.json`, `--mcp-config`, Gantry's
 * `~/.gantry/mcp.json`, Claude Code's `~/.claude.json` or a settings file) and expanding its
 * variables. Rules (Claude Code documentation, "MCP" configuration; observed behaviour):
 * - no `type` and a `command` → stdio; `type: "stdio"` the same;
 * - `type: "http"` or `"streamable-http"` → Streamable HTTP; `type: "sse"` → HTTP+SSE;
 * - a `url` without a `type` is an error (the entry is skipped and reported);
 * - `command` must be a non-empty string, `args` an array of strings, `env`/`headers` string maps,
 *   `url` an http(s) URL after expansion;
 * - `ws` and `sdk` entries are reported as unsupported here;
 * - unknown keys are ignored (Claude Code's files carry keys Gantry does not read).
 */
import path from 'node:path';
import { expandMap, expandVariables } from './expand.js';
import type { McpConfigProblem, McpServerEntry } from './types.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function stringMap(v: unknown, what: string): { map: Record<string, string>; error?: string } {
  if (v === undefined) return { map: {} };
  if (!isObj(v)) return { map: {}, error: `${what} must be an object of strings` };
  const map: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') return { map: {}, error: `${what}.${k} must be a string` };
    map[k] = x;
  }
  return { map };
}

export interface ParsedEntry {
  entry?: McpServerEntry;
  problems: McpConfigProblem[];
}

/**
 * Parses and expands one entry. `baseDir` anchors a relative `cwd`. Never throws: an invalid entry
 * gives no `entry` and an error problem naming the server and the file.
 */
export function parseServerEntry(
  name: string,
  raw: unknown,
  options: { file: string; env: Readonly<Record<string, string | undefined>>; baseDir: string },
): ParsedEntry {
  const problems: McpConfigProblem[] = [];
  const fail = (message: string): ParsedEntry => ({
    problems: [
      ...problems,
      { severity: 'error', message: `MCP server "${name}": ${message}`, file: options.file, server: name },
    ],
  });
  if (!isObj(raw)) return fail('the entry must be an object');
  const rawType = raw.type;
  if (rawType !== undefined && typeof rawType !== 'string') return fail('"type" must be a string');
  let type: 'stdio' | 'http' | 'sse';
  if (rawType === undefined) {
    if (raw.url !== undefined && raw.command === undefined)
      return fail('an entry with "url" needs "type": "http" or "sse"');
    type = 'stdio';
  } else if (rawType === 'stdio') type = 'stdio';
  else if (rawType === 'http' || rawType === 'streamable-http') type = 'http';
  else if (rawType === 'sse') type = 'sse';
  else if (rawType === 'ws' || rawType === 'sdk')
    return fail(`transport "${rawType}" is not supported by Gantry's MCP client`);
  else return fail(`unknown transport type "${rawType}"`);

  const missing: string[] = [];
  const expand = (s: string): string => {
    const r = expandVariables(s, options.env);
    missing.push(...r.missing);
    return r.value;
  };
  const common: { timeoutMs?: number; alwaysLoad?: boolean } = {};
  if (raw.timeout !== undefined) {
    if (typeof raw.timeout !== 'number' || !Number.isFinite(raw.timeout) || raw.timeout <= 0)
      return fail('"timeout" must be a positive number of milliseconds');
    common.timeoutMs = raw.timeout;
  }
  if (raw.alwaysLoad !== undefined) {
    if (typeof raw.alwaysLoad !== 'boolean') return fail('"alwaysLoad" must be true or false');
    common.alwaysLoad = raw.alwaysLoad;
  }

  let entry: McpServerEntry;
  if (type === 'stdio') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      return fail('"command" must be a non-empty string');
    if (raw.args !== undefined && (!Array.isArray(raw.args) || raw.args.some((a) => typeof a !== 'string')))
      return fail('"args" must be an array of strings');
    const env = stringMap(raw.env, 'env');
    if (env.error) return fail(env.error);
    const expandedEnv = expandMap(env.map, options.env);
    missing.push(...expandedEnv.missing);
    entry = {
      type: 'stdio',
      command: expand(raw.command),
      args: ((raw.args as string[] | undefined) ?? []).map(expand),
      env: expandedEnv.value,
      ...common,
    };
    if (raw.cwd !== undefined) {
      if (typeof raw.cwd !== 'string' || raw.cwd === '') return fail('"cwd" must be a non-empty string');
      entry.cwd = path.resolve(options.baseDir, expand(raw.cwd));
    }
  } else {
    if (typeof raw.url !== 'string' || raw.url === '') return fail('"url" must be a non-empty string');
    const headers = stringMap(raw.headers, 'headers');
    if (headers.error) return fail(headers.error);
    const expandedHeaders = expandMap(headers.map, options.env);
    missing.push(...expandedHeaders.missing);
    const url = expand(raw.url);
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
      return fail(`"url" is not an http(s) URL: ${url}`);
    entry = { type, url, headers: expandedHeaders.value, ...common };
  }
  for (const v of [...new Set(missing)])
    problems.push({
      severity: 'warning',
      message: `MCP server "${name}": environment variable ${v} is not set and has no default; left as written`,
      file: options.file,
      server: name,
    });
  return { entry, problems };
}
