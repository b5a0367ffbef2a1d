/**
 * Recording approval pins when the user always-allows an MCP tool: a permission engine whose
 * `addSessionRule` and `acceptSuggestion` also pin the current definitions of the tools an allow
 * rule names (`mcp__srv__tool`, or every tool of `mcp__srv` / `mcp__srv__*`). Hosts pass this
 * engine to the loop instead of the plain one; everything else is the engine itself.
 * docs/mcp-client.md "Approval pinning".
 */
import { parseMcpToolName } from '../../../core/mcp-names.js';
import type { AnyTool } from '../../../core/tool.js';
import type { PermissionEngine } from '../../../permissions/engine.js';
import { parseRuleText } from '../../../permissions/rules/parse-rule.js';
import { fingerprintOf } from '../tools/adapt.js';
import type { ApprovalPins } from './pins.js';

/** The tool part of an allow rule when it names MCP tools without a specifier, else undefined. */
function mcpRuleTarget(text: string): string | undefined {
  const parsed = parseRuleText(text);
  if (!parsed.ok || parsed.value.ruleContent !== undefined) return undefined;
  return parseMcpToolName(parsed.value.toolName) ? parsed.value.toolName : undefined;
}

/** The tools an MCP rule target covers. */
function coveredTools(target: string, tools: readonly AnyTool[]): AnyTool[] {
  const parsed = parseMcpToolName(target);
  if (!parsed) return [];
  const serverWide = parsed.toolName === undefined || parsed.toolName === '*' || parsed.toolName === '';
  return tools.filter((t) => {
    if (!t.isMcp) return false;
    if (!serverWide) return t.name === target;
    return parseMcpToolName(t.name)?.serverName === parsed.serverName;
  });
}

/** `engine` with pin recording (see the module comment). `tools()` gives the session's MCP tools as served now. */
export function withApprovalPinning(
  engine: PermissionEngine,
  options: { pins: ApprovalPins; tools: () => readonly AnyTool[] },
): PermissionEngine {
  const pin = (text: string, persist: boolean): void => {
    const target = mcpRuleTarget(text);
    if (!target) return;
    const tools = coveredTools(target, options.tools());
    if (tools.length) options.pins.pin(target, tools.map(fingerprintOf), persist);
  };
  return {
    ...engine,
    addSessionRule(text, behavior) {
      const problems = engine.addSessionRule(text, behavior);
      if (behavior === 'allow' && !problems.some((p) => p.severity === 'error')) pin(text, false);
      return problems;
    },
    acceptSuggestion(suggestion) {
      const result = engine.acceptSuggestion(suggestion);
      if (!result.problems.some((p) => p.severity === 'error'))
        pin(suggestion.rule, suggestion.destination !== 'session');
      return result;
    },
  };
}
