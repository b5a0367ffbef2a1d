/**
 * The permission-rule grammar (spec §3.3–3.7): `Tool` or `Tool(specifier)`.
 *
 * `parseRuleText` only splits the text and validates its shape; `classifyRule` decides what kind of
 * rule it is for its tool (Bash command pattern, Read/Edit path, WebFetch domain, parameter rule,
 * MCP name, generic content) and rejects shapes Claude Code rejects. Malformed rules come back as
 * problems (never thrown, never silently dropped): the loader reports them with file and line.
 *
 * Our decisions where the spec leaves them open (spec §3.3 [INFERRED]):
 * - `Tool()` (empty parentheses) is malformed; `Tool(*)` is the bare tool.
 * - Inside a Bash specifier `\*` is a literal star and `\\` a backslash.
 * - Path rules written for `Write`, `MultiEdit`, `NotebookEdit` are read as `Edit(...)` rules and
 *   `Glob(...)` as `Read(...)`, with a warning (Claude Code accepts and ignores them; honouring them is
 *   the fail-closed choice for deny rules and what the author meant for allow rules).
 */
import type { PermissionBehavior } from '../../core/permission-types.js';

export interface RuleText {
  toolName: string;
  /** Text inside the parentheses; undefined for a bare rule or `Tool(*)`. */
  ruleContent?: string;
}

export type ParseResult<T> = { ok: true; value: T; warnings: string[] } | { ok: false; error: string };

const TOOL_NAME = /^[A-Za-z0-9_*-]+$/;

/** Splits `Tool(specifier)`; validates parentheses and the tool name. */
export function parseRuleText(text: string): ParseResult<RuleText> {
  if (typeof text !== 'string') return { ok: false, error: 'rule is not a string' };
  const t = text.trim();
  if (t === '') return { ok: false, error: 'empty rule' };
  const open = t.indexOf('(');
  if (open === -1) {
    if (t.includes(')')) return { ok: false, error: `unbalanced ")" in rule "${t}"` };
    if (!TOOL_NAME.test(t)) return { ok: false, error: `invalid tool name "${t}"` };
    return { ok: true, value: { toolName: t }, warnings: [] };
  }
  const toolName = t.slice(0, open).trim();
  if (toolName === '') return { ok: false, error: `rule "${t}" has no tool name before "("` };
  if (!TOOL_NAME.test(toolName)) return { ok: false, error: `invalid tool name "${toolName}"` };
  if (!t.endsWith(')')) return { ok: false, error: `rule "${t}" is missing its closing ")"` };
  const content = t.slice(open + 1, -1);
  if (content.trim() === '') return { ok: false, error: `rule "${t}" has empty parentheses` };
  if (content === '*') return { ok: true, value: { toolName }, warnings: [] };
  return { ok: true, value: { toolName, ruleContent: content }, warnings: [] };
}

/** Tools whose specifier is a shell command pattern. */
export const SHELL_RULE_TOOLS = new Set(['Bash', 'Monitor']);
/** Tools whose specifier is a gitignore-style path (after aliasing). */
export const PATH_RULE_TOOLS = new Set(['Read', 'Edit']);
/** Path-rule aliases: `Write(x)` is read as `Edit(x)`, `Glob(x)` as `Read(x)` (see module doc). */
export const PATH_RULE_ALIASES: Readonly<Record<string, 'Read' | 'Edit'>> = {
  Write: 'Edit',
  MultiEdit: 'Edit',
  NotebookEdit: 'Edit',
  Glob: 'Read',
};

/**
 * Top-level input fields per built-in tool (for `Tool(param:value)` rules, spec §3.3). The primary
 * content field of each tool is excluded: a parameter rule on it is malformed.
 */
export const PARAM_FIELDS: Readonly<
  Record<string, { fields: readonly string[]; primary: readonly string[] }>
> = {
  Bash: {
    fields: ['timeout', 'description', 'run_in_background', 'dangerouslyDisableSandbox'],
    primary: ['command'],
  },
  Monitor: { fields: ['timeout', 'description'], primary: ['command'] },
  Read: { fields: ['offset', 'limit', 'pages'], primary: ['file_path'] },
  Edit: { fields: ['replace_all'], primary: ['file_path'] },
  Write: { fields: [], primary: ['file_path'] },
  Grep: {
    fields: ['pattern', 'glob', 'type', 'output_mode', 'multiline', '-i', '-n', 'head_limit'],
    primary: ['path'],
  },
  Glob: { fields: ['pattern'], primary: ['path'] },
  NotebookEdit: { fields: ['cell_id', 'cell_type', 'edit_mode'], primary: ['notebook_path'] },
  WebFetch: { fields: ['prompt'], primary: ['url'] },
  WebSearch: { fields: ['query', 'allowed_domains', 'blocked_domains'], primary: [] },
  Agent: {
    fields: ['model', 'subagent_type', 'description', 'run_in_background', 'isolation'],
    primary: [],
  },
  Task: { fields: ['model', 'subagent_type', 'description', 'run_in_background'], primary: [] },
};

export type RuleKind =
  /** Bare tool, tool-name glob, or MCP server/tool name. */
  | { type: 'tool' }
  /** Shell command pattern (Bash, Monitor). */
  | { type: 'shell'; pattern: string }
  /** Read/Edit gitignore-style path. */
  | { type: 'path'; access: 'Read' | 'Edit'; pattern: string }
  /** `WebFetch(domain:host)`. */
  | { type: 'domain'; host: string }
  /** `Tool(param:value)` (deny/ask only). */
  | { type: 'param'; param: string; value: string }
  /** Any other specifier, matched against the call's ruleContents (`Agent(Explore)`, `Skill(x *)`). */
  | { type: 'content'; pattern: string };

export interface ClassifiedRule {
  /** Tool name after aliasing (`Write(x)` → `Edit`). */
  toolName: string;
  ruleContent?: string;
  kind: RuleKind;
}

const PARAM_RULE = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$/s;

/**
 * Classifies a parsed rule for `behavior`. Rejects: tool-name globs in allow rules except after a
 * literal `mcp__<server>__` prefix; parentheses on MCP rules; parameter rules in allow rules or on a
 * primary field; WebFetch specifiers other than `domain:`.
 */
export function classifyRule(parsed: RuleText, behavior: PermissionBehavior): ParseResult<ClassifiedRule> {
  const warnings: string[] = [];
  let { toolName } = parsed;
  const content = parsed.ruleContent;
  const isGlobName = toolName.includes('*');
  if (isGlobName) {
    if (content !== undefined)
      return { ok: false, error: `a tool-name pattern ("${toolName}") cannot take a specifier` };
    if (behavior === 'allow' && !/^mcp__[^_*][^*]*?__/.test(toolName))
      return {
        ok: false,
        error: `allow rules may use "*" in the tool name only after "mcp__<server>__" ("${toolName}" would allow too much)`,
      };
    return { ok: true, value: { toolName, kind: { type: 'tool' } }, warnings };
  }
  if (toolName.startsWith('mcp__')) {
    if (content !== undefined)
      return { ok: false, error: `MCP rules take no specifier: use "${toolName}" or "${toolName}__<tool>"` };
    return { ok: true, value: { toolName, kind: { type: 'tool' } }, warnings };
  }
  if (content === undefined) return { ok: true, value: { toolName, kind: { type: 'tool' } }, warnings };

  const alias = PATH_RULE_ALIASES[toolName];
  if (alias) {
    warnings.push(`path rule ${toolName}(${content}) is applied as ${alias}(${content})`);
    toolName = alias;
  }

  // Parameter rules (deny/ask only).
  const param = parseParamRule(toolName, content);
  if (param) {
    if ('error' in param) return { ok: false, error: param.error };
    if (behavior === 'allow')
      return {
        ok: false,
        error: `parameter rules (${toolName}(${content})) are only valid in deny and ask lists`,
      };
    return {
      ok: true,
      value: {
        toolName,
        ruleContent: content,
        kind: { type: 'param', param: param.param, value: param.value },
      },
      warnings,
    };
  }

  if (SHELL_RULE_TOOLS.has(toolName))
    return {
      ok: true,
      value: { toolName, ruleContent: content, kind: { type: 'shell', pattern: content } },
      warnings,
    };
  if (PATH_RULE_TOOLS.has(toolName))
    return {
      ok: true,
      value: {
        toolName,
        ruleContent: content,
        kind: { type: 'path', access: toolName as 'Read' | 'Edit', pattern: content },
      },
      warnings,
    };
  if (toolName === 'WebFetch') {
    const m = /^domain:(.+)$/s.exec(content.trim());
    if (!m?.[1]?.trim()) return { ok: false, error: `WebFetch rules take "domain:<host>", got "${content}"` };
    return {
      ok: true,
      value: { toolName, ruleContent: content, kind: { type: 'domain', host: m[1].trim() } },
      warnings,
    };
  }
  if (toolName === 'WebSearch') return { ok: false, error: 'WebSearch rules take no specifier' };
  return {
    ok: true,
    value: { toolName, ruleContent: content, kind: { type: 'content', pattern: content } },
    warnings,
  };
}

/**
 * Recognises `param:value` for tools with a known field table. For shell tools `X:*` is always the
 * legacy prefix form (`Bash(timeout:*)` means the `timeout` command), never a parameter rule.
 */
function parseParamRule(
  toolName: string,
  content: string,
): { param: string; value: string } | { error: string } | undefined {
  const table = PARAM_FIELDS[toolName];
  if (!table) return undefined;
  const m = PARAM_RULE.exec(content);
  if (!m) return undefined;
  const param = m[1] as string;
  const value = (m[2] as string).trim();
  if (SHELL_RULE_TOOLS.has(toolName) && value === '*') return undefined;
  if (table.primary.includes(param))
    return { error: `parameter rules cannot constrain the primary field "${param}" of ${toolName}` };
  if (!table.fields.includes(param)) return undefined;
  if (value === '') return { error: `parameter rule ${toolName}(${content}) has no value` };
  return { param, value };
}
