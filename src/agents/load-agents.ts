/**
 * Custom agent definitions: Markdown files with YAML frontmatter (the body is the agent's system
 * prompt) and `--agents <json>`, following Claude Code's sub-agents documentation.
 *
 * Sources, highest priority first (for the same `name`, the first found wins):
 * 1. `--agents '{"name": {"description", "prompt", "tools", …}}'` (this session only);
 * 2. for each directory from the working directory up to the project root: `.gantry/agents/`, then
 *    `.claude/agents/` (the closest directory wins);
 * 3. `~/.gantry/agents/`, then `~/.claude/agents/` (read only);
 * 4. the built-in types (a custom agent may replace one, except `fork`).
 *
 * Directories are scanned recursively for `*.md`. A file that cannot be used (no frontmatter, YAML
 * that does not parse, a missing or malformed `name` or `description`, a field of the wrong type)
 * is left out and reported as a problem with its file and line; loading never throws.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { PERMISSION_MODES, type PermissionMode } from '../core/index.js';
import { type AgentDefinition, type AgentSource, BUILT_IN_AGENTS, FORK_AGENT_TYPE } from './definitions.js';

let yamlModule: typeof Yaml | undefined;
/** yaml (CommonJS) is required with the first definition file, not at start (docs/cli-print.md, "Start-up"). */
function yamlLib(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

export interface AgentLoadProblem {
  file: string;
  line?: number;
  message: string;
}

export interface LoadAgentsOptions {
  cwd: string;
  /** The top directory to scan up to (default: `cwd`). */
  projectRoot?: string;
  home: string;
  /** The `--agents` value: a JSON object text. */
  flagJson?: string;
}

export interface LoadedAgents {
  /** Every agent type, custom first in priority order, then the built-ins not replaced. */
  agents: AgentDefinition[];
  problems: AgentLoadProblem[];
}

const NAME = /^[a-z0-9][a-z0-9-]*$/;
const MAX_FILES = 500;

function listMarkdown(dir: string, out: string[] = [], depth = 0): string[] {
  if (depth > 8 || out.length >= MAX_FILES) return out;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listMarkdown(p, out, depth + 1);
    else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

function toList(value: unknown): string[] | undefined | Error {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => v.trim());
  return new Error('must be a comma-separated string or a list of tool names');
}

/** Validates one definition's fields; `lineOf(key)` gives the line of a field for messages. */
function definitionFrom(
  fields: Record<string, unknown>,
  body: string,
  source: AgentSource,
  file: string,
  lineOf: (key: string) => number | undefined,
  problems: AgentLoadProblem[],
): AgentDefinition | undefined {
  const fail = (key: string | undefined, message: string): undefined => {
    // A missing field is reported at the frontmatter's first line.
    const fallback = file.startsWith('--agents') ? undefined : 1;
    const line = (key ? lineOf(key) : undefined) ?? fallback;
    problems.push({ file, ...(line ? { line } : {}), message });
    return undefined;
  };
  const name = fields.name;
  if (typeof name !== 'string' || !name) return fail(undefined, 'the agent has no `name`');
  if (!NAME.test(name))
    return fail(
      'name',
      `name "${name}" must be lowercase letters, digits and hyphens (not starting with a hyphen)`,
    );
  if (name === FORK_AGENT_TYPE) return fail('name', '"fork" is reserved for the built-in fork type');
  const description = fields.description;
  if (typeof description !== 'string' || !description.trim())
    return fail('description', `agent "${name}" has no \`description\``);
  const tools = toList(fields.tools);
  if (tools instanceof Error) return fail('tools', `tools: ${tools.message}`);
  const disallowed = toList(fields.disallowedTools);
  if (disallowed instanceof Error) return fail('disallowedTools', `disallowedTools: ${disallowed.message}`);
  const model = fields.model;
  if (model !== undefined && (typeof model !== 'string' || !model))
    return fail('model', 'model must be a string');
  let mode = fields.permissionMode;
  if (mode === 'manual') mode = 'default';
  if (mode !== undefined && !(PERMISSION_MODES as readonly unknown[]).includes(mode))
    return fail('permissionMode', `permissionMode must be one of ${PERMISSION_MODES.join(', ')}`);
  const maxTurns = fields.maxTurns;
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && (maxTurns as number) > 0))
    return fail('maxTurns', 'maxTurns must be a positive whole number');
  const mcp = fields.mcpServers;
  if (mcp !== undefined && !Array.isArray(mcp)) return fail('mcpServers', 'mcpServers must be a list');
  const hooks = fields.hooks;
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)))
    return fail('hooks', 'hooks must be an object of hook events');
  const background = fields.background;
  if (background !== undefined && typeof background !== 'boolean')
    return fail('background', 'background must be true or false');
  const isolation = fields.isolation;
  if (isolation !== undefined && isolation !== 'worktree')
    return fail('isolation', 'isolation must be "worktree"');
  return {
    agentType: name,
    whenToUse: description.trim(),
    prompt: body.trim(),
    ...(tools ? { tools } : {}),
    ...(disallowed ? { disallowedTools: disallowed } : {}),
    ...(typeof model === 'string' ? { model } : {}),
    ...(mode !== undefined ? { permissionMode: mode as PermissionMode } : {}),
    ...(typeof maxTurns === 'number' ? { maxTurns } : {}),
    ...(Array.isArray(mcp) ? { mcpServers: mcp } : {}),
    ...(hooks ? { hooks: hooks as Record<string, unknown> } : {}),
    ...(background === true ? { background: true } : {}),
    ...(isolation === 'worktree' ? { isolation: 'worktree' as const } : {}),
    source,
    filePath: file,
  };
}

/** Parses one agent file (see the module comment). */
export function parseAgentFile(
  file: string,
  text: string,
  source: AgentSource,
  problems: AgentLoadProblem[],
): AgentDefinition | undefined {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalised.startsWith('---\n')) {
    problems.push({ file, line: 1, message: 'no YAML frontmatter: the file must start with a `---` line' });
    return undefined;
  }
  const end = normalised.indexOf('\n---', 3);
  if (end < 0) {
    problems.push({ file, line: 1, message: 'the frontmatter is not closed by a `---` line' });
    return undefined;
  }
  const yamlText = normalised.slice(4, end + 1);
  const afterFence = normalised.indexOf('\n', end + 1);
  const body = afterFence < 0 ? '' : normalised.slice(afterFence + 1);
  const { LineCounter, parseDocument } = yamlLib();
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const pos = counter.linePos(e.pos[0]);
    problems.push({ file, line: pos.line + 1, message: `frontmatter YAML: ${e.message.split('\n')[0]}` });
    return undefined;
  }
  const value = doc.toJS() as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ file, line: 2, message: 'the frontmatter must be a mapping of fields' });
    return undefined;
  }
  const lineOf = (key: string): number | undefined => {
    const contents = doc.contents as {
      items?: { key?: { value?: unknown; range?: [number, number, number] } }[];
    };
    const item = contents?.items?.find((i) => i.key?.value === key);
    const offset = item?.key?.range?.[0];
    return offset === undefined ? undefined : counter.linePos(offset).line + 1;
  };
  return definitionFrom(value as Record<string, unknown>, body, source, file, lineOf, problems);
}

/** The directories from `cwd` up to `top` (inclusive), closest first. */
function upTo(cwd: string, top: string): string[] {
  const dirs: string[] = [];
  let dir = path.resolve(cwd);
  const stop = path.resolve(top);
  for (;;) {
    dirs.push(dir);
    if (dir === stop) break;
    const parent = path.dirname(dir);
    if (parent === dir || !dir.startsWith(stop)) break;
    dir = parent;
  }
  return dirs;
}

/** Loads every agent type (see the module comment). */
export function loadAgentDefinitions(options: LoadAgentsOptions): LoadedAgents {
  const problems: AgentLoadProblem[] = [];
  const found: AgentDefinition[] = [];
  const add = (def: AgentDefinition | undefined): void => {
    if (def && !found.some((d) => d.agentType === def.agentType)) found.push(def);
  };

  if (options.flagJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(options.flagJson);
    } catch (e) {
      problems.push({
        file: '--agents',
        message: `not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
    if (parsed !== undefined) {
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        problems.push({
          file: '--agents',
          message: 'expected an object {"<name>": {"description": …, "prompt": …}}',
        });
      else
        for (const [name, raw] of Object.entries(parsed as Record<string, unknown>)) {
          if (typeof raw !== 'object' || raw === null) {
            problems.push({ file: '--agents', message: `agent "${name}": expected an object` });
            continue;
          }
          const { prompt, ...rest } = raw as Record<string, unknown>;
          add(
            definitionFrom(
              { ...rest, name },
              typeof prompt === 'string' ? prompt : '',
              'flag',
              `--agents (${name})`,
              () => undefined,
              problems,
            ),
          );
        }
    }
  }

  const scan = (dir: string, source: AgentSource): void => {
    if (!existsSync(dir)) return;
    try {
      if (!statSync(dir).isDirectory()) return;
    } catch {
      return;
    }
    for (const file of listMarkdown(dir)) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        problems.push({ file, message: `cannot read: ${e instanceof Error ? e.message : String(e)}` });
        continue;
      }
      add(parseAgentFile(file, text, source, problems));
    }
  };
  for (const dir of upTo(options.cwd, options.projectRoot ?? options.cwd)) {
    scan(path.join(dir, '.gantry', 'agents'), 'gantry');
    scan(path.join(dir, '.claude', 'agents'), 'project');
  }
  scan(path.join(options.home, '.gantry', 'agents'), 'user');
  scan(path.join(options.home, '.claude', 'agents'), 'user');

  for (const b of BUILT_IN_AGENTS) if (!found.some((d) => d.agentType === b.agentType)) found.push(b);
  return { agents: found, problems };
}
