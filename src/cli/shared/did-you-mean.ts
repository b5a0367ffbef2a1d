/**
 * "Did you mean" for tool names: the closest name of the trait table when it is close enough to be
 * a typo (case slips and one or two wrong letters). Used by `gantry check` and `gantry doctor`.
 */
import { TOOL_TRAITS, traitsOf } from '../../core/tool-traits.js';

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0] as number;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j] as number;
      d[j] = Math.min((d[j] as number) + 1, (d[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length] as number;
}

/** The closest known tool name, or undefined when none is close. */
export function didYouMean(name: string): string | undefined {
  let best: { n: string; d: number } | undefined;
  for (const n of TOOL_TRAITS.keys()) {
    const dist = editDistance(name.toLowerCase(), n.toLowerCase());
    if (!best || dist < best.d) best = { n, d: dist };
  }
  return best && best.d <= Math.max(2, Math.floor(name.length / 4)) ? best.n : undefined;
}

/** True for names Claude Code would match as a tool: a known tool, an MCP tool, or a glob. */
export function isKnownToolName(name: string): boolean {
  return name.startsWith('mcp__') || /[*?]/.test(name) || traitsOf(name) !== undefined;
}
