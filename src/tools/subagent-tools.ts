/**
 * Which tools a sub-agent may be given, from the trait table's `subagents` column
 * (docs/tool-traits.md): `never` tools need the main conversation (a question to the person,
 * entering plan mode, the session's own scheduling), `plan-mode` tools only fit a sub-agent that
 * runs in plan mode (ExitPlanMode). The agents room filters a sub-agent's tool list with it.
 */
import type { PermissionMode } from '../core/permission-types.js';
import { TOOL_TRAITS, traitsOf } from '../core/tool-traits.js';

/** Names (and aliases) of the tools no sub-agent is ever given. */
export const SUBAGENT_EXCLUDED_TOOLS: ReadonlySet<string> = new Set(
  [...TOOL_TRAITS.values()].filter((t) => t.subagents === 'never').flatMap((t) => [t.name, ...t.aliases]),
);

/** True when a sub-agent running in `mode` may be given tool `name`. Unknown tools: yes (MCP, host tools). */
export function subagentMayUse(name: string, mode: PermissionMode): boolean {
  const rule = traitsOf(name)?.subagents ?? 'yes';
  return rule === 'yes' || (rule === 'plan-mode' && mode === 'plan');
}
