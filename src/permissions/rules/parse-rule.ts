/**
 * The permission-rule grammar (the Claude Code permissions docs): `Tool` or `Tool(specifier)`.
 *
 * `parseRuleText` only splits the text and validates its shape; `classifyRule` decides what kind of
 * rule it is for its tool (Bash command pattern, Read/Edit path, WebFetch domain, parameter rule,
 * MCP name, generic content) and rejects shapes Claude Code rejects. Malformed rules come back as
 * problems (never thrown, never silently dropped): the loader reports them with file and line.
 *
 * Our decisions where the spec leaves them open (the Claude Code permissions docs [INFERRED]):
 * - `Tool()` (empty parentheses) is malformed; `Tool(*)` is the bare tool.
 * - Inside a Bash specifier `\*` is a literal star and `\\` a backslash.
 * - Path rules written for another file tool are read as `Edit(...)` (writers: `Write`, `MultiEdit`,
 *   `NotebookEdit`) or `Read(...)` (readers: `Glob`, `Grep`, `LS`, `NotebookRead`, `LSP`), with a
 *   warning (Claude Code accepts and ignores them; honouring them is the fail-closed choice for deny
 *   rules and what the author meant for allow rules).
 *
 * What kind of specifier a tool takes comes from its row in the trait table (core/tool-traits.ts,
 * `ruleKind`, `primaryFields`, `paramFields`); names not in the table take generic content rules.
 */
import { isMcpToolName } from '../../core/mcp-names.js';
import type { PermissionBehavior } from '../../core/permission-types.js';
import { traitsOf } from '../../core/tool-traits.js';

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
  if (isMcpToolName(toolName)) {
    if (content !== undefined)
      return { ok: false, error: `MCP rules take no specifier: use "${toolName}" or "${toolName}__<tool>"` };
    return { ok: true, value: { toolName, kind: { type: 'tool' } }, warnings };
  }
  if (content === undefined) return { ok: true, value: { toolName, kind: { type: 'tool' } }, warnings };

  // Parameter rules (deny/ask only), on the tool as named.
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

  const ruleKind = traitsOf(toolName)?.ruleKind ?? 'content';
  if (ruleKind === 'path-read' || ruleKind === 'path-edit') {
    const access = ruleKind === 'path-read' ? 'Read' : 'Edit';
    if (toolName !== access) {
      warnings.push(`path rule ${toolName}(${content}) is applied as ${access}(${content})`);
      toolName = access;
    }
  }
  switch (ruleKind) {
    case 'shell':
      return {
        ok: true,
        value: { toolName, ruleContent: content, kind: { type: 'shell', pattern: content } },
        warnings,
      };
    case 'path-read':
    case 'path-edit':
      return {
        ok: true,
        value: {
          toolName,
          ruleContent: content,
          kind: { type: 'path', access: toolName as 'Read' | 'Edit', pattern: content },
        },
        warnings,
      };
    case 'domain': {
      const m = /^domain:(.+)$/s.exec(content.trim());
      if (!m?.[1]?.trim())
        return { ok: false, error: `${toolName} rules take "domain:<host>", got "${content}"` };
      return {
        ok: true,
        value: { toolName, ruleContent: content, kind: { type: 'domain', host: m[1].trim() } },
        warnings,
      };
    }
    case 'none':
      return { ok: false, error: `${toolName} rules take no specifier` };
    default:
      return {
        ok: true,
        value: { toolName, ruleContent: content, kind: { type: 'content', pattern: content } },
        warnings,
      };
  }
}

/**
 * Recognises `param:value` for tools with a known field table. For shell tools `X:*` is always the
 * legacy prefix form (`Bash(timeout:*)` means the `timeout` command), never a parameter rule.
 */
function parseParamRule(
  toolName: string,
  content: string,
): { param: string; value: string } | { error: string } | undefined {
  const traits = traitsOf(toolName);
  if (!traits) return undefined;
  const m = PARAM_RULE.exec(content);
  if (!m) return undefined;
  const param = m[1] as string;
  const value = (m[2] as string).trim();
  if (traits.ruleKind === 'shell' && value === '*') return undefined;
  if (traits.primaryFields.includes(param))
    return { error: `parameter rules cannot constrain the primary field "${param}" of ${toolName}` };
  if (!traits.paramFields.includes(param)) return undefined;
  if (value === '') return { error: `parameter rule ${toolName}(${content}) has no value` };
  return { param, value };
}
