/**
 * Call descriptions built from a tool's input alone, for callers that have no tool object (the
 * security evaluation, `gantry hook` for a host's tools, replays). Same semantics as the file
 * tools' `describeCall` (tools/file-io/describe-call.ts): the permission target is the absolute
 * path, the effect a read or write of it. Paths are NOT symlink-resolved here: the engine resolves
 * every file effect itself (and checks both the named and the resolved path).
 *
 * | tool | effects |
 * |---|---|
 * | Read | read `file_path` |
 * | Write, Edit, MultiEdit | write `file_path` |
 * | NotebookEdit | write `notebook_path` |
 * | Glob | read the directory the pattern searches (`path`, default cwd, plus the pattern's fixed leading segments) |
 * | Grep | read `path` (default: cwd) |
 * | LS | read `path` |
 * | WebFetch | network `url`; ruleContents `domain:<host>` |
 * | anything else | none; ruleContents from `subagent_type` (Agent/Task) or `skill`/`command` (Skill) |
 */
import { knownEffect, unknownEffect } from '../core/effects.js';
import { pathCharacterFindings } from '../core/path-characters.js';
import { expandPath } from '../core/paths.js';
import type { CallDescription } from '../core/permission-types.js';
import { hostOf } from './rules/domain-pattern.js';

const READ_TOOLS: Readonly<Record<string, string>> = {
  Read: 'file_path',
  Glob: 'path',
  Grep: 'path',
  LS: 'path',
};
const WRITE_TOOLS: Readonly<Record<string, string>> = {
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

/**
 * Host tools that change nothing on the machine, so Claude Code runs them without a prompt (spec §2.1
 * tool inventory): planning and to-do state, questions to the user, reading a background task's
 * output, tool search. Described as read-only with no effects, so `gantry hook` does not make the
 * host prompt for them (a deny or ask rule naming them still applies). Agent/Task is not here: a
 * sub-agent's own calls are checked one by one, but starting one is left to the rules.
 */
const NO_EFFECT_HOST_TOOLS: ReadonlySet<string> = new Set([
  'TodoWrite',
  'TodoRead',
  'TaskOutput',
  'BashOutput',
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
  'ToolSearch',
  'TaskList',
  'TaskGet',
]);

/** Describes a non-shell call from its input (see module doc). */
export function describeToolInput(
  toolName: string,
  input: Record<string, unknown>,
  world: { cwd: string; home: string },
): CallDescription {
  const readField = READ_TOOLS[toolName];
  const writeField = WRITE_TOOLS[toolName];
  const field = readField ?? writeField;
  if (field) {
    const raw = input[field];
    const kind = readField ? 'read' : 'write';
    if (raw === undefined && readField && toolName !== 'Read') {
      const root =
        toolName === 'Glob' && typeof input.pattern === 'string'
          ? globBase(input.pattern, world.cwd, world.home)
          : world.cwd;
      return {
        ruleContents: [root],
        effects: [knownEffect('read', root, 'tool-input', field)],
        findings: [],
        readOnly: true,
        summary: `${toolName} ${root}`,
      };
    }
    if (typeof raw !== 'string' || raw === '')
      return {
        ruleContents: [],
        effects: [unknownEffect(kind, String(raw), 'tool-input', `${field} is missing`)],
        findings: [],
        readOnly: false,
        summary: `${toolName} (no ${field})`,
      };
    // A NUL byte or a control character: the file opened is not the one judged (core/path-characters.ts).
    const odd = pathCharacterFindings(raw, field);
    if (odd.length)
      return {
        ruleContents: [],
        effects: [unknownEffect(kind, raw, 'tool-input', `${field} with control characters`)],
        findings: odd,
        readOnly: false,
        summary: `${toolName} ${JSON.stringify(raw)}`,
      };
    let abs = expandPath(raw, world);
    if (toolName === 'Glob' && typeof input.pattern === 'string')
      abs = globBase(input.pattern, abs, world.home);
    return {
      ruleContents: [abs],
      effects: [knownEffect(kind, abs, 'tool-input', field)],
      findings: [],
      readOnly: kind === 'read',
      summary: `${toolName} ${abs}`,
    };
  }
  if (toolName === 'WebFetch') {
    const url = typeof input.url === 'string' ? input.url : '';
    const host = hostOf(url);
    return {
      ruleContents: host ? [`domain:${host}`] : [],
      effects: host
        ? [knownEffect('network', url, 'tool-input', 'url')]
        : [unknownEffect('network', url, 'tool-input', 'url')],
      findings: [],
      readOnly: true,
      summary: `WebFetch ${url}`,
    };
  }
  if (NO_EFFECT_HOST_TOOLS.has(toolName))
    return { ruleContents: [], effects: [], findings: [], readOnly: true, summary: toolName };
  const content =
    toolName === 'Agent' || toolName === 'Task'
      ? input.subagent_type
      : toolName === 'Skill'
        ? (input.skill ?? input.command)
        : undefined;
  return {
    ruleContents: typeof content === 'string' ? [content] : [],
    effects: [],
    findings: [],
    readOnly: false,
    summary: toolName,
  };
}

/**
 * The directory a Glob pattern actually searches: its leading segments without glob characters,
 * resolved against the search root: `../../etc/*` and `/etc/*` leave the root, a pattern that starts
 * with a wildcard does not.
 */
function globBase(pattern: string, root: string, home: string): string {
  const fixed: string[] = [];
  for (const seg of pattern.split('/')) {
    if (/[*?[{]/.test(seg)) break;
    fixed.push(seg);
  }
  if (fixed.length === pattern.split('/').length) fixed.pop();
  const prefix = fixed.join('/');
  if (prefix === '') return pattern.startsWith('/') ? '/' : root;
  return expandPath(prefix, { cwd: root, home });
}
