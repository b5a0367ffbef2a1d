/**
 * Whether deferred loading is on for a session (`ENABLE_TOOL_SEARCH`, as Claude Code reads it;
 * docs/mcp-client.md "Activation"):
 *
 * | value | effect |
 * |---|---|
 * | unset, `true` | on: deferrable tools are sent by name only, ToolSearch loads them |
 * | `false` | off: every tool is sent in full, no ToolSearch |
 * | `auto` | on once the deferrable tools' definitions would take 10 % of the context window or more |
 * | `auto:N` | the same with N % (0–100) |
 *
 * Sizes are estimated at 4 characters a token over the definitions' JSON (a deliberate
 * approximation: no request is made to count them). Anything else is a warning and counts as unset.
 */
import type { AnyTool } from '../../core/tool.js';
import { toolDefinition } from '../../runtime/tool-definitions.js';
import { isDeferredTool } from '../../tools/tool-search/is-deferred.js';

export const DEFAULT_AUTO_TOOL_SEARCH_PERCENT = 10;

export type ToolSearchSetting = { mode: 'on' } | { mode: 'off' } | { mode: 'auto'; percent: number };

/** Parses `ENABLE_TOOL_SEARCH`; `warning` is set for a value that is not understood. */
export function parseToolSearchSetting(raw: string | undefined): {
  setting: ToolSearchSetting;
  warning?: string;
} {
  const v = raw?.trim().toLowerCase();
  if (v === undefined || v === '' || v === 'true' || v === '1') return { setting: { mode: 'on' } };
  if (v === 'false' || v === '0') return { setting: { mode: 'off' } };
  if (v === 'auto') return { setting: { mode: 'auto', percent: DEFAULT_AUTO_TOOL_SEARCH_PERCENT } };
  const m = /^auto:(\d+(?:\.\d+)?)$/.exec(v);
  if (m && Number(m[1]) >= 0 && Number(m[1]) <= 100)
    return { setting: { mode: 'auto', percent: Number(m[1]) } };
  return {
    setting: { mode: 'on' },
    warning: `ENABLE_TOOL_SEARCH=${raw} is not true, false, auto or auto:N (0-100); using the default (on)`,
  };
}

/** Estimated tokens of the definitions of `tools` (JSON characters / 4). */
export function estimateDefinitionTokens(tools: readonly AnyTool[]): number {
  let chars = 0;
  for (const t of tools) chars += JSON.stringify(toolDefinition(t)).length;
  return Math.ceil(chars / 4);
}

export interface ToolSearchDecision {
  enabled: boolean;
  reason: string;
  /** Estimated tokens of the deferrable tools' definitions (auto mode). */
  deferrableTokens?: number;
}

/**
 * Decides for `tools` (everything the session may call). `contextWindowTokens` is the model's
 * context window (auto mode).
 */
export function decideToolSearch(
  setting: ToolSearchSetting,
  tools: readonly AnyTool[],
  contextWindowTokens: number,
  options: { forkSubagentEnabled?: boolean } = {},
): ToolSearchDecision {
  if (setting.mode === 'on') return { enabled: true, reason: 'ENABLE_TOOL_SEARCH is on (the default)' };
  if (setting.mode === 'off') return { enabled: false, reason: 'ENABLE_TOOL_SEARCH=false' };
  const deferrable = tools.filter((t) => isDeferredTool(t, options));
  const deferrableTokens = estimateDefinitionTokens(deferrable);
  const threshold = (contextWindowTokens * setting.percent) / 100;
  const enabled = deferrableTokens >= threshold;
  return {
    enabled,
    deferrableTokens,
    reason: `ENABLE_TOOL_SEARCH=auto:${setting.percent}: deferrable tools take about ${deferrableTokens} tokens, ${enabled ? 'at least' : 'under'} ${setting.percent}% of ${contextWindowTokens}`,
  };
}
