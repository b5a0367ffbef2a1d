/**
 * Compiling rule texts into matchers, once, at load time; and the rule set the pipeline queries.
 *
 * Rules from every source combine as deny → ask → allow (the Claude Code permissions docs): the pipeline asks the
 * deny list first, then ask, then allow; within a list the first match in load order is reported,
 * but order never changes *whether* a list matches.
 */
import { parseMcpToolName } from '../../core/mcp-names.js';
import type { PermissionBehavior, PermissionRule, RuleSource } from '../../core/permission-types.js';
import {
  canonicalToolName,
  EDIT_FAMILY_NAMES,
  TOOL_TRAITS,
  toolNamesOf,
  traitsFor,
} from '../../core/tool-traits.js';
import { compileDomainPattern } from './domain-pattern.js';
import { classifyRule, parseRuleText, type RuleKind } from './parse-rule.js';
import { type CompiledPathPattern, compilePathPattern, type PathAnchors } from './path-pattern.js';
import { compileShellPattern, type ShellPattern } from './shell-pattern.js';

/** One rule as found in a source, before compiling. */
export interface RuleEntry {
  text: string;
  behavior: PermissionBehavior;
  source: RuleSource;
  file?: string;
  line?: number;
  /** What a single leading `/` in a path rule means for this source (see path-pattern.ts). */
  pathRoot: string;
}

/** A rule problem found while compiling (reported with file and line; the rule is skipped). */
export interface RuleProblem {
  severity: 'error' | 'warning';
  message: string;
  rule: string;
  behavior: PermissionBehavior;
  source: RuleSource;
  file?: string;
  line?: number;
}

export interface CompiledRule {
  rule: PermissionRule;
  kind: RuleKind['type'];
  /** For `tool`, `shell`, `param`, `content` rules: does this rule concern the named tool? */
  matchesTool(toolName: string): boolean;
  shell?: ShellPattern;
  path?: { access: 'Read' | 'Edit'; pattern: CompiledPathPattern };
  domain?: (host: string) => boolean;
  param?: { name: string; test(value: unknown): boolean };
  content?: ShellPattern;
  /** Broad allow rules are suspended in auto mode (the Claude Code permissions docs). */
  broad: boolean;
}

/**
 * Which tool names a rule on `name` concerns. Aliases come from the trait table (core/tool-traits.ts):
 * a rule on `KillBash` covers `TaskStop`, `KillShell` and `KillBash`. A bare `Edit` deny/ask rule
 * covers every file writer (`editFamily`: Edit, Write, MultiEdit, NotebookEdit); a bare `Edit`
 * *allow* covers Edit only, as Claude Code 2.1.332 does (a bare `Edit` allow still asks for Write).
 * `mcp__server` covers every tool of that server; `*` globs match whole names.
 */
function toolNameMatcher(name: string, behavior: PermissionBehavior): (toolName: string) => boolean {
  if (name === '*') return () => true;
  if (name.includes('*')) {
    const re = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    return (t) => re.test(t);
  }
  const mcp = parseMcpToolName(name);
  if (mcp && mcp.toolName === undefined) {
    // `mcp__server`: every tool of that server.
    return (t) => t === name || t.startsWith(`${name}__`);
  }
  const family: ReadonlySet<string> =
    canonicalToolName(name) === 'Edit' && behavior !== 'allow'
      ? EDIT_FAMILY_NAMES
      : new Set([...toolNamesOf(name), ...shellRuleTakers(canonicalToolName(name))]);
  return (t) => family.has(t);
}

/** Names of the tools whose commands `tool`'s rules also govern (`Bash` → Monitor; core/tool-traits.ts). */
function shellRuleTakers(tool: string): string[] {
  return [...TOOL_TRAITS.values()]
    .filter((t) => t.shellRulesOf === tool)
    .flatMap((t) => [t.name, ...t.aliases]);
}

const INTERPRETERS = new Set([
  'python',
  'python3',
  'python2',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'bash',
  'sh',
  'zsh',
  'fish',
  'pwsh',
  'env',
  'sudo',
  'xargs',
  'eval',
  'exec',
]);
const RUNNERS = [
  'npm run',
  'npm exec',
  'npx',
  'pnpm',
  'pnpm run',
  'pnpm exec',
  'pnpm dlx',
  'yarn',
  'yarn run',
  'yarn dlx',
  'bunx',
  'bun run',
  'uv run',
  'uvx',
  'pipx run',
  'poetry run',
  'make',
  'cargo run',
  'go run',
  'docker run',
  'docker exec',
];

/** Bash allow rules that grant arbitrary code execution: suspended in auto mode (the Claude Code permissions docs). */
function isBroadShellAllow(p: ShellPattern): boolean {
  if (p.type === 'any') return true;
  if (p.type === 'exact') return false;
  const head = p.type === 'prefix' ? p.prefix : p.regex.source.replace(/^\^/, '').replace(/\\/g, '');
  const words = head.split(/[\s[]/).filter(Boolean);
  const first = (words[0] ?? '').replace(/\*.*$/, '');
  if (first === '' || INTERPRETERS.has(first) || /^python\d/.test(first)) return true;
  const two = words.slice(0, 2).join(' ');
  return RUNNERS.includes(two) || (RUNNERS.includes(first) && words.length === 1);
}

/** Compiles one entry; returns the rule or a problem (plus warnings). */
export function compileRule(
  entry: RuleEntry,
  anchors: Omit<PathAnchors, 'root'>,
): { rule?: CompiledRule; problems: RuleProblem[] } {
  const problem = (severity: RuleProblem['severity'], message: string): RuleProblem => ({
    severity,
    message,
    rule: entry.text,
    behavior: entry.behavior,
    source: entry.source,
    ...(entry.file !== undefined ? { file: entry.file } : {}),
    ...(entry.line !== undefined ? { line: entry.line } : {}),
  });
  const parsed = parseRuleText(entry.text);
  if (!parsed.ok) return { problems: [problem('error', parsed.error)] };
  const classified = classifyRule(parsed.value, entry.behavior);
  if (!classified.ok) return { problems: [problem('error', classified.error)] };
  const problems = classified.warnings.map((w) => problem('warning', w));
  const { toolName, ruleContent, kind } = classified.value;
  const rule: PermissionRule = {
    toolName,
    behavior: entry.behavior,
    source: entry.source,
    text: entry.text.trim(),
    ...(ruleContent !== undefined ? { ruleContent } : {}),
    ...(entry.file !== undefined ? { file: entry.file } : {}),
    ...(entry.line !== undefined ? { line: entry.line } : {}),
  };
  const matchesTool = toolNameMatcher(toolName, entry.behavior);
  const base = { rule, kind: kind.type, matchesTool, broad: false };
  switch (kind.type) {
    case 'tool':
      return {
        rule: { ...base, broad: entry.behavior === 'allow' && traitsFor(toolName).broadAllow },
        problems,
      };
    case 'shell': {
      const shell = compileShellPattern(kind.pattern);
      return {
        rule: { ...base, shell, broad: entry.behavior === 'allow' && isBroadShellAllow(shell) },
        problems,
      };
    }
    case 'path':
      return {
        rule: {
          ...base,
          matchesTool: () => false,
          path: {
            access: kind.access,
            pattern: compilePathPattern(kind.pattern, entry.behavior, { ...anchors, root: entry.pathRoot }),
          },
        },
        problems,
      };
    case 'domain':
      return { rule: { ...base, domain: compileDomainPattern(kind.host) }, problems };
    case 'param': {
      const re = new RegExp(
        `^${kind.value.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*')}$`,
      );
      const test = (v: unknown): boolean =>
        (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && re.test(String(v));
      return { rule: { ...base, param: { name: kind.param, test } }, problems };
    }
    case 'content':
      return { rule: { ...base, content: compileShellPattern(kind.pattern) }, problems };
  }
}

/** `kindLists` keys of the path and domain rules (constants: looked up per call). */
const PATH_KEYS: Record<PermissionBehavior, string> = {
  deny: 'deny:path',
  ask: 'ask:path',
  allow: 'allow:path',
};
const DOMAIN_KEYS: Record<PermissionBehavior, string> = {
  deny: 'deny:domain',
  ask: 'ask:domain',
  allow: 'allow:domain',
};

/** The compiled rules of a session, by behavior and kind. */
export class RuleSet {
  readonly all: CompiledRule[] = [];
  private readonly lists: Record<PermissionBehavior, CompiledRule[]> = { deny: [], ask: [], allow: [] };
  /** `forTool`'s answers, per behavior then tool name (emptied when a rule is added or removed). */
  private readonly toolCache: Record<PermissionBehavior, Map<string, CompiledRule[]>> = {
    deny: new Map(),
    ask: new Map(),
    allow: new Map(),
  };
  private readonly kindLists = new Map<string, CompiledRule[]>();

  constructor(rules: readonly CompiledRule[] = []) {
    for (const r of rules) this.add(r);
  }

  add(r: CompiledRule): void {
    this.all.push(r);
    this.lists[r.rule.behavior].push(r);
    const k = `${r.rule.behavior}:${r.kind}`;
    const l = this.kindLists.get(k);
    if (l) l.push(r);
    else this.kindLists.set(k, [r]);
    this.clearToolCache();
  }

  /** Removes a rule added before (a temporary rule whose time is over); unknown rules are ignored. */
  remove(r: CompiledRule): void {
    const drop = (list: CompiledRule[]) => {
      const i = list.indexOf(r);
      if (i >= 0) list.splice(i, 1);
    };
    drop(this.all);
    drop(this.lists[r.rule.behavior]);
    const l = this.kindLists.get(`${r.rule.behavior}:${r.kind}`);
    if (l) drop(l);
    this.clearToolCache();
  }

  private clearToolCache(): void {
    this.toolCache.deny.clear();
    this.toolCache.ask.clear();
    this.toolCache.allow.clear();
  }

  /** Every rule with this behavior, in load order. */
  list(behavior: PermissionBehavior): readonly CompiledRule[] {
    return this.lists[behavior];
  }

  /** Rules of `behavior` that concern `toolName` (tool, shell, param, content kinds). */
  forTool(behavior: PermissionBehavior, toolName: string): readonly CompiledRule[] {
    // Looked up per call: one map per behavior, so no key string is built for it.
    const cache = this.toolCache[behavior];
    let hit = cache.get(toolName);
    if (!hit) {
      hit = this.lists[behavior].filter((r) => r.matchesTool(toolName));
      cache.set(toolName, hit);
    }
    return hit;
  }

  /** Read/Edit path rules of `behavior`. */
  pathRules(behavior: PermissionBehavior): readonly CompiledRule[] {
    return this.kindLists.get(PATH_KEYS[behavior]) ?? [];
  }

  /** WebFetch domain rules of `behavior`. */
  domainRules(behavior: PermissionBehavior): readonly CompiledRule[] {
    return this.kindLists.get(DOMAIN_KEYS[behavior]) ?? [];
  }

  /** A bare deny of the tool (or a tool-name glob): the tool is removed from the model's list. */
  bareDeny(toolName: string): CompiledRule | undefined {
    return this.forTool('deny', toolName).find((r) => r.kind === 'tool');
  }
}
