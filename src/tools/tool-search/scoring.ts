/**
 * ToolSearch's matching (docs/mcp-client.md "ToolSearch scoring"). Implemented directly rather
 * than with a search library: the score is a sum of a few fixed signals per query term, and the
 * weights must be exactly these:
 *
 * | signal (per term) | MCP tool | built-in |
 * |---|---|---|
 * | a name part equals the term | +12 | +10 |
 * | else a name part contains the term | +6 | +5 |
 * | else the whole name contains the term (a term spanning parts: `pullrequest`, `get_issue`) | +3 | +3 |
 * | the search hint has the term as a word | +4 | +4 |
 * | the description has the term as a word | +2 | +2 |
 *
 * Name parts: the tool name split at `_`, `-`, `.` and lower→upper case changes, lower-cased; for
 * `mcp__server__tool` the server's and the tool's parts. Terms: the query lower-cased, split at
 * white space. A term written `+term` must occur in the name (whole-name containment); the others
 * only rank. With only `+` terms, they also rank. Tools scoring 0 are left out. Ties: higher
 * score first, then name in code-unit order (deterministic).
 *
 * `select:A,B` loads exactly the named tools, in the order given, skipping names that are not
 * deferred tools. A name is looked up as written, then case-insensitively; a name without the
 * `mcp__` prefix is then tried as `mcp__<name>` (`github__create_issue`, as the names section
 * groups MCP tools by server), and last as the tool part of exactly one MCP tool (`create_issue`
 * when no other server has one). An ambiguous short name selects nothing.
 */
import { parseMcpToolName } from '../../core/mcp-names.js';
import type { AnyTool } from '../../core/tool.js';

export const WEIGHTS = {
  exactPartMcp: 12,
  exactPartBuiltIn: 10,
  partialPartMcp: 6,
  partialPartBuiltIn: 5,
  searchHint: 4,
  fullName: 3,
  descriptionWord: 2,
} as const;

/** The searchable facts of one tool, computed once per tool object. */
export interface SearchEntry {
  tool: AnyTool;
  name: string;
  lowerName: string;
  parts: string[];
  isMcp: boolean;
  description: string;
  hint: string;
}

/** `mcp__github__create_pull_request` → github, create, pull, request; `NotebookEdit` → notebook, edit. */
export function nameParts(name: string): string[] {
  const mcp = parseMcpToolName(name);
  const text = mcp ? `${mcp.serverName} ${mcp.toolName ?? ''}` : name;
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-/]+/)
    .map((p) => p.toLowerCase())
    .filter(Boolean);
}

const cache = new WeakMap<AnyTool, SearchEntry>();

export function searchEntry(tool: AnyTool): SearchEntry {
  let entry = cache.get(tool);
  if (!entry) {
    entry = {
      tool,
      name: tool.name,
      lowerName: tool.name.toLowerCase(),
      parts: nameParts(tool.name),
      isMcp: tool.isMcp === true,
      description: (tool.description ?? '').toLowerCase(),
      hint: (tool.searchHint ?? '').toLowerCase(),
    };
    cache.set(tool, entry);
  }
  return entry;
}

/** True when `word` occurs in `text` delimited by non-alphanumerics (both lower-case). */
export function hasWord(text: string, word: string): boolean {
  if (!word) return false;
  let from = 0;
  for (;;) {
    const i = text.indexOf(word, from);
    if (i < 0) return false;
    const before = i === 0 ? '' : (text[i - 1] as string);
    const after = i + word.length >= text.length ? '' : (text[i + word.length] as string);
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
    from = i + 1;
  }
}

/** The score of one term for one tool (the table in the module comment). */
export function termScore(entry: SearchEntry, term: string): number {
  let score = 0;
  if (entry.parts.includes(term)) score += entry.isMcp ? WEIGHTS.exactPartMcp : WEIGHTS.exactPartBuiltIn;
  else if (entry.parts.some((p) => p.includes(term)))
    score += entry.isMcp ? WEIGHTS.partialPartMcp : WEIGHTS.partialPartBuiltIn;
  else if (entry.lowerName.includes(term)) score += WEIGHTS.fullName;
  if (entry.hint && hasWord(entry.hint, term)) score += WEIGHTS.searchHint;
  if (hasWord(entry.description, term)) score += WEIGHTS.descriptionWord;
  return score;
}

export interface ParsedQuery {
  select?: string[];
  required: string[];
  ranking: string[];
}

export function parseQuery(query: string): ParsedQuery {
  const q = query.trim();
  if (/^select:/i.test(q))
    return {
      select: q
        .slice('select:'.length)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      required: [],
      ranking: [],
    };
  const required: string[] = [];
  const ranking: string[] = [];
  for (const raw of q.toLowerCase().split(/\s+/)) {
    if (!raw) continue;
    if (raw.startsWith('+') && raw.length > 1) required.push(raw.slice(1));
    else if (raw !== '+') ranking.push(raw);
  }
  return { required, ranking: ranking.length ? ranking : required };
}

/** The deferred tool `wanted` names for `select:` (see the module comment), or undefined. */
export function selectTool(tools: readonly AnyTool[], wanted: string): AnyTool | undefined {
  const lower = wanted.toLowerCase();
  const exact = tools.find((t) => t.name === wanted) ?? tools.find((t) => t.name.toLowerCase() === lower);
  if (exact || lower.startsWith('mcp__')) return exact;
  const prefixed = `mcp__${lower}`;
  const viaServer = tools.find((t) => t.name.toLowerCase() === prefixed);
  if (viaServer) return viaServer;
  const byToolPart = tools.filter((t) => parseMcpToolName(t.name)?.toolName?.toLowerCase() === lower);
  return byToolPart.length === 1 ? byToolPart[0] : undefined;
}

export interface ScoredTool {
  tool: AnyTool;
  score: number;
}

/** Runs `query` over `tools` (the deferred tools); at most `maxResults` results. */
export function searchTools(tools: readonly AnyTool[], query: string, maxResults: number): ScoredTool[] {
  const parsed = parseQuery(query);
  if (parsed.select) {
    const out: ScoredTool[] = [];
    const seen = new Set<AnyTool>();
    for (const wanted of parsed.select) {
      const tool = selectTool(tools, wanted);
      if (tool && !seen.has(tool)) {
        seen.add(tool);
        out.push({ tool, score: 0 });
      }
    }
    return out;
  }
  if (parsed.ranking.length === 0) return [];
  const scored: ScoredTool[] = [];
  for (const tool of tools) {
    const entry = searchEntry(tool);
    if (!parsed.required.every((r) => entry.lowerName.includes(r))) continue;
    let score = 0;
    for (const term of parsed.ranking) score += termScore(entry, term);
    if (score > 0) scored.push({ tool, score });
  }
  scored.sort(
    (a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0),
  );
  return scored.slice(0, Math.max(0, maxResults));
}
