/**
 * A skill file (`SKILL.md`): YAML frontmatter between `---` lines, then the Markdown body (Claude
 * Code documentation, "Agent Skills"). Fields read: `name`, `description`, `allowed-tools`,
 * `disallowed-tools` (a list, or one string of comma/space separated entries), `model`,
 * `context` (`fork` runs the skill in a sub-agent), `agent` (the sub-agent type for a fork),
 * `disable-model-invocation` (true: not offered to the model), `argument-hint`. Unknown keys are
 * ignored. A file without frontmatter is a skill whose description is its first paragraph.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let yamlModule: typeof Yaml | undefined;
/** yaml (CommonJS) is required with the first skill file, not at start (docs/cli-print.md, "Start-up"). */
function yamlLib(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

/** Splits `"Bash(git add *), Read  Grep"` into rules: commas and spaces separate, except inside parentheses. */
export function splitRuleList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

export interface SkillMeta {
  name?: string;
  description?: string;
  allowedTools: string[];
  disallowedTools: string[];
  model?: string;
  context?: 'fork';
  agent?: string;
  disableModelInvocation: boolean;
  argumentHint?: string;
}

export type ParsedSkill = { ok: true; meta: SkillMeta; body: string } | { ok: false; error: string };

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function toolList(value: unknown, field: string): string[] | string {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return splitRuleList(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value.map((v) => v.trim()).filter(Boolean);
  return `\`${field}\` must be a list of tool rules or one string of them`;
}

function optionalString(value: unknown, field: string): string | undefined | { error: string } {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  return { error: `\`${field}\` must be a string` };
}

/** Parses a skill file's text. Errors name the problem; the caller adds the file. */
export function parseSkillFile(text: string): ParsedSkill {
  const match = FENCE.exec(text);
  const body = match ? text.slice(match[0].length) : text;
  let data: unknown = {};
  if (match) {
    try {
      data = yamlLib().parse(match[1] ?? '') ?? {};
    } catch (error) {
      return { ok: false, error: `invalid YAML frontmatter: ${(error as Error).message.split('\n')[0]}` };
    }
    if (typeof data !== 'object' || Array.isArray(data))
      return { ok: false, error: 'the frontmatter must be a YAML mapping (key: value lines)' };
  }
  const fm = data as Record<string, unknown>;
  const meta: SkillMeta = { allowedTools: [], disallowedTools: [], disableModelInvocation: false };
  for (const [field, key] of [
    ['name', 'name'],
    ['description', 'description'],
    ['model', 'model'],
    ['agent', 'agent'],
    ['argument-hint', 'argumentHint'],
  ] as const) {
    const v = optionalString(fm[field], field);
    if (typeof v === 'object') return { ok: false, error: v.error };
    if (v !== undefined) meta[key] = v;
  }
  const allowed = toolList(fm['allowed-tools'], 'allowed-tools');
  if (typeof allowed === 'string') return { ok: false, error: allowed };
  meta.allowedTools = allowed;
  const disallowed = toolList(fm['disallowed-tools'], 'disallowed-tools');
  if (typeof disallowed === 'string') return { ok: false, error: disallowed };
  meta.disallowedTools = disallowed;
  if (fm.context !== undefined && fm.context !== null) {
    if (fm.context !== 'fork' && fm.context !== 'inline')
      return { ok: false, error: '`context` must be `fork` (or left out)' };
    if (fm.context === 'fork') meta.context = 'fork';
  }
  const dmi = fm['disable-model-invocation'];
  if (dmi !== undefined && dmi !== null) {
    if (typeof dmi !== 'boolean')
      return { ok: false, error: '`disable-model-invocation` must be true or false' };
    meta.disableModelInvocation = dmi;
  }
  if (!meta.description) {
    const first = body
      .trim()
      .split(/\r?\n\s*\r?\n/)[0]
      ?.replace(/^#+\s*/, '')
      .trim();
    if (first) meta.description = first.length > 250 ? `${first.slice(0, 249)}…` : first;
  }
  return { ok: true, meta, body };
}
