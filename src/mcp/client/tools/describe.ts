/**
 * Effects of an MCP tool call, read from the server's own input schema (docs/mcp-client.md
 * "Effects from schemas"). An MCP tool is a black box to Gantry, but its schema names its
 * arguments: a top-level argument named like a path (`path`, `file_path`, `filepath`, `filename`,
 * `file`, `directory`, `dir`, `folder`, `cwd`, and the arrays `paths`, `files`, `directories`), or
 * named `source`/`destination`/`src`/`dest`/`target`/`from`/`to` when the argument's description,
 * or the tool's name or description, speaks of files, paths or directories, is a file effect on
 * the value: a **read** when the tool is read-only by its hint, otherwise a **write**. An argument
 * named like a URL (`url`, `uri`, `href`, `endpoint`, and `urls`) is a **network** effect on the
 * URL's host (a `file:` URI is a file effect instead).
 *
 * The effects only ever add restrictions: the permission engine applies protected-path rules,
 * `Read(...)`/`Edit(...)` deny and ask rules and domain rules to them, so
 * `mcp__filesystem__write_file {path: ".env"}` is denied like `Write .env`. They never allow a
 * call: the description is never `readOnly`, and MCP calls are never allowed on path rules alone.
 *
 * Relative paths resolve against the session's working directory (where Gantry starts stdio
 * servers); `~` is the home directory. A path argument present with a value that is not a string
 * (or an array holding one) is an unknown effect, which asks. Pure: no I/O.
 */
import { fileURLToPath } from 'node:url';
import type { DescribeWorld } from '../../../core/call-describer.js';
import { type Effect, knownEffect, unknownEffect } from '../../../core/effects.js';
import { expandPath } from '../../../core/paths.js';
import type { CallDescription } from '../../../core/permission-types.js';

const PATH_NAMES = new Set([
  'path',
  'filepath',
  'filename',
  'file',
  'directory',
  'dir',
  'folder',
  'cwd',
  'dirpath',
  'directorypath',
  'folderpath',
  'notebookpath',
]);
const PATH_LIST_NAMES = new Set(['paths', 'files', 'filepaths', 'filenames', 'directories', 'dirs']);
const MAYBE_PATH_NAMES = new Set([
  'source',
  'destination',
  'src',
  'dest',
  'target',
  'from',
  'to',
  'sourcepath',
  'destinationpath',
  'targetpath',
  'output',
  'input',
]);
const URL_NAMES = new Set(['url', 'uri', 'href', 'endpoint', 'link']);
const URL_LIST_NAMES = new Set(['urls', 'uris']);
const FILE_WORDS = /\b(files?|paths?|director(y|ies)|folders?|filesystem|file system)\b/i;

/** `file_path` → `filepath`, `filePath` → `filepath`, `FILE-NAME` → `filename`. */
export function canonicalArgName(name: string): string {
  return name.replace(/[_\-\s]/g, '').toLowerCase();
}

/** What the describer needs from the tool. */
export interface McpDescribeInfo {
  /** The server's tool name (not the `mcp__` name). */
  toolName: string;
  toolDescription: string;
  /** The server's input schema. */
  inputSchema: Record<string, unknown>;
  /** `readOnlyHint` (only chooses read vs write; never allows). */
  readOnlyHint: boolean;
}

export type ArgumentRole = 'path' | 'path-list' | 'url' | 'url-list';

/** The role of each top-level argument the schema declares (only those with one). */
export function argumentRoles(
  info: Pick<McpDescribeInfo, 'toolName' | 'toolDescription' | 'inputSchema'>,
): Map<string, ArgumentRole> {
  const roles = new Map<string, ArgumentRole>();
  const props = info.inputSchema.properties;
  if (!props || typeof props !== 'object') return roles;
  const toolTalksFiles =
    FILE_WORDS.test(info.toolName.replace(/[_-]/g, ' ')) || FILE_WORDS.test(info.toolDescription);
  for (const [name, raw] of Object.entries(props as Record<string, unknown>)) {
    const schema = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const key = canonicalArgName(name);
    const described = typeof schema.description === 'string' ? schema.description : '';
    const isArray = schema.type === 'array';
    if (PATH_NAMES.has(key) || key.endsWith('filepath') || key.endsWith('filename'))
      roles.set(name, isArray ? 'path-list' : 'path');
    else if (PATH_LIST_NAMES.has(key)) roles.set(name, 'path-list');
    else if (MAYBE_PATH_NAMES.has(key) && (FILE_WORDS.test(described) || toolTalksFiles))
      roles.set(name, isArray ? 'path-list' : 'path');
    else if (URL_NAMES.has(key) || schema.format === 'uri' || schema.format === 'url')
      roles.set(name, isArray ? 'url-list' : 'url');
    else if (URL_LIST_NAMES.has(key)) roles.set(name, 'url-list');
  }
  return roles;
}

function pathEffect(kind: 'read' | 'write', value: string, world: DescribeWorld, arg: string): Effect {
  if (value.trim() === '') return unknownEffect(kind, value, 'tool-input', `empty ${arg}`);
  return knownEffect(
    kind,
    // The world itself: expandPath reads `home` only for a `~` path.
    expandPath(value, world),
    'tool-input',
    `MCP argument ${arg}`,
  );
}

function urlEffect(
  kind: 'read' | 'write',
  value: string,
  world: DescribeWorld,
  arg: string,
): Effect | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return unknownEffect('network', value, 'tool-input', `MCP argument ${arg} is not a URL`);
  }
  if (url.protocol === 'file:') {
    try {
      return pathEffect(kind, fileURLToPath(url), world, arg);
    } catch {
      return unknownEffect(kind, value, 'tool-input', `MCP argument ${arg}`);
    }
  }
  if (
    url.protocol === 'http:' ||
    url.protocol === 'https:' ||
    url.protocol === 'ws:' ||
    url.protocol === 'wss:'
  )
    return knownEffect('network', url.host, 'tool-input', `MCP argument ${arg}`);
  // Another scheme (a server's own `memo://…`, `db://…`): names something inside the server.
  return undefined;
}

/** Describes one call (see the module comment). */
export function describeMcpCall(
  info: McpDescribeInfo,
  input: Readonly<Record<string, unknown>>,
  world: DescribeWorld,
  roles: ReadonlyMap<string, ArgumentRole> = argumentRoles(info),
): CallDescription {
  const kind = info.readOnlyHint ? 'read' : 'write';
  const effects: Effect[] = [];
  const parts: string[] = [];
  for (const [arg, role] of roles) {
    if (!Object.hasOwn(input, arg)) continue;
    const value = input[arg];
    if (value === undefined || value === null) continue;
    const one = role === 'path' || role === 'path-list' ? pathEffect : urlEffect;
    const list = role === 'path-list' || role === 'url-list';
    const values = Array.isArray(value) ? value : [value];
    if (!list && Array.isArray(value)) {
      effects.push(
        unknownEffect(
          role === 'path' ? kind : 'network',
          JSON.stringify(value).slice(0, 200),
          'tool-input',
          `MCP argument ${arg}`,
        ),
      );
      continue;
    }
    for (const v of values) {
      if (typeof v !== 'string') {
        effects.push(
          unknownEffect(
            role.startsWith('path') ? kind : 'network',
            JSON.stringify(v)?.slice(0, 200) ?? String(v),
            'tool-input',
            `MCP argument ${arg}`,
          ),
        );
        continue;
      }
      const effect = one(kind, v, world, arg);
      if (effect) effects.push(effect);
    }
    parts.push(`${arg}=${Array.isArray(value) ? `[${value.length}]` : String(value).slice(0, 120)}`);
  }
  return {
    ruleContents: [],
    effects,
    findings: [],
    readOnly: false,
    summary: `${info.toolName}${parts.length ? ` ${parts.join(' ')}` : ''}`,
  };
}
