import { describe, expect, it } from 'vitest';
import type { PermissionBehavior } from '../../core/permission-types.js';
import { classifyRule, parseRuleText } from './parse-rule.js';

function classify(text: string, behavior: PermissionBehavior = 'deny') {
  const p = parseRuleText(text);
  if (!p.ok) return p;
  return classifyRule(p.value, behavior);
}

describe('parseRuleText', () => {
  it.each([
    ['Bash', { toolName: 'Bash' }, 'bare tool'],
    ['Bash(*)', { toolName: 'Bash' }, 'Tool(*) is the bare tool (the Claude Code permissions docs)'],
    ['Bash(npm run test:*)', { toolName: 'Bash', ruleContent: 'npm run test:*' }, 'specifier kept verbatim'],
    ['  Read(./.env)  ', { toolName: 'Read', ruleContent: './.env' }, 'surrounding whitespace trimmed'],
    ['Bash(echo (x))', { toolName: 'Bash', ruleContent: 'echo (x)' }, 'parentheses inside the specifier'],
    ['mcp__github__get_*', { toolName: 'mcp__github__get_*' }, 'MCP name with a glob'],
  ])('%s parses (%s)', (text, value, _why) => {
    const r = parseRuleText(text);
    expect(r.ok && r.value).toEqual(value);
  });

  it.each([
    ['', 'empty rule'],
    ['Bash(npm run', 'missing closing parenthesis'],
    ['(ls)', 'no tool name'],
    ['Bash()', 'empty parentheses'],
    ['Bash)', 'unbalanced closing parenthesis'],
    ['Ba sh', 'space in a tool name'],
    ['Bash$(x)', 'invalid character in the tool name'],
  ])('%j is malformed (%s)', (text) => {
    expect(parseRuleText(text).ok).toBe(false);
  });
});

describe('classifyRule', () => {
  it.each([
    ['Bash(git push:*)', 'deny', 'shell', 'Bash specifier is a command pattern'],
    [
      'Bash(run_in_background:true)',
      'deny',
      'param',
      'known Bash field → parameter rule (the Claude Code permissions docs)',
    ],
    ['Bash(timeout:*)', 'deny', 'shell', '`X:*` on a shell tool is always the legacy prefix form'],
    ['Bash(dangerouslyDisableSandbox:true)', 'ask', 'param', 'the documented sandbox escape rule'],
    ['Read(./secrets/**)', 'deny', 'path', 'Read takes gitignore paths'],
    ['Write(./src/**)', 'allow', 'path', 'Write path rule read as Edit'],
    ['WebFetch(domain:example.com)', 'allow', 'domain', 'WebFetch domain rule'],
    ['Agent(Explore)', 'deny', 'content', 'agent type'],
    ['Agent(model:opus)', 'deny', 'param', 'Agent parameter rule'],
    ['mcp__github', 'allow', 'tool', 'MCP server rule'],
    ['*', 'deny', 'tool', 'tool-name glob allowed in deny'],
    ['mcp__*', 'ask', 'tool', 'tool-name glob allowed in ask'],
    ['mcp__github__get_*', 'allow', 'tool', 'allow glob after a literal mcp__server__ prefix'],
  ])('%s as %s → %s (%s)', (text, behavior, kind) => {
    const r = classify(text, behavior as PermissionBehavior);
    expect(r.ok && r.value.kind.type).toBe(kind);
  });

  it.each([
    ['*', 'allow', 'bare * in allow would allow every tool'],
    ['mcp__*', 'allow', 'a server-wide MCP glob in allow is refused (the Claude Code permissions docs)'],
    ['B*', 'allow', 'a partial-name glob in allow'],
    ['Bash(run_in_background:true)', 'allow', 'parameter rules are deny/ask only'],
    ['Bash(command:rm)', 'deny', 'parameter rule on the primary field'],
    ['Read(file_path:/x)', 'deny', 'parameter rule on the primary field of Read'],
    ['WebFetch(https://x.example)', 'allow', 'WebFetch needs domain:'],
    ['mcp__github(x)', 'deny', 'MCP rules take no specifier'],
    ['WebSearch(foo)', 'deny', 'WebSearch takes no specifier'],
  ])('%s as %s is rejected (%s)', (text, behavior) => {
    expect(classify(text, behavior as PermissionBehavior).ok).toBe(false);
  });

  it('aliases Write(...) to Edit(...) with a warning', () => {
    const r = classify('Write(./src/**)', 'allow');
    expect(r.ok && r.value.toolName).toBe('Edit');
    expect(r.ok && r.warnings[0]).toMatch(/applied as Edit/);
  });
});
