/**
 * The tool list of each agent type, pinned. Over the tools Claude Code 2.1.332 sends its main
 * thread by default (its docs/agent-wire.md, "Per-type request shape"), Gantry's filtering gives each
 * type exactly the list Claude Code gave that type; over Gantry's own tools, each type's list is
 * written out here so a change to the filters shows up as a diff.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool } from '../core/index.js';
import { canonicalToolName, traitsOf } from '../core/tool-traits.js';
import { BUILT_IN_AGENTS } from './definitions.js';
import { filterToolsForAgent, resolveAgentTools } from './filter-tools.js';

function tool(name: string): AnyTool {
  return buildTool({
    name,
    aliases: traitsOf(canonicalToolName(name))?.aliases ?? [],
    description: name,
    inputSchema: z.object({}),
    async *call() {
      return { data: '' };
    },
  });
}

function listFor(type: string, names: readonly string[], isAsync?: boolean): string[] {
  const def = BUILT_IN_AGENTS.find((a) => a.agentType === type)!;
  const async = isAsync ?? def.background === true;
  const filtered = filterToolsForAgent({
    tools: names.map(tool),
    isBuiltIn: def.source === 'built-in',
    isAsync: async,
    depth: 1,
  });
  return resolveAgentTools(def, filtered).tools.map((t) => t.name);
}

/** Claude Code's default main-thread tools (DeferredToolPlaceholder is a wire artefact, left out). */
const CC_DEFAULT = [
  'Agent',
  'Bash',
  'Edit',
  'ListAgents',
  'Read',
  'ReportFindings',
  'ScheduleWakeup',
  'Skill',
  'ToolSearch',
  'Workflow',
  'Write',
];

describe("agreement with Claude Code's observed lists", () => {
  it.each<[string, boolean, string[], string]>([
    [
      'Explore',
      false,
      ['Bash', 'ListAgents', 'Read', 'ReportFindings', 'Skill', 'ToolSearch'],
      'read-only: no Agent, Edit, Write; no ScheduleWakeup or Workflow',
    ],
    [
      'Plan',
      false,
      ['Bash', 'ListAgents', 'Read', 'ReportFindings', 'Skill', 'ToolSearch'],
      'same as Explore',
    ],
    [
      'general-purpose',
      false,
      ['Agent', 'Bash', 'Edit', 'ListAgents', 'Read', 'ReportFindings', 'Skill', 'ToolSearch', 'Write'],
      'the parent minus ScheduleWakeup and Workflow; keeps Agent',
    ],
    [
      'general-purpose',
      true,
      ['Agent', 'Bash', 'Edit', 'Read', 'Skill', 'ToolSearch', 'Write'],
      'background allowlist: no ListAgents or ReportFindings',
    ],
  ])('%s (background %s)', (type, isAsync, expected, _reason) => {
    expect(listFor(type, CC_DEFAULT, isAsync)).toEqual(expected);
  });

  it('a custom agent with `tools: Read, Glob` gets exactly those, in that order', () => {
    const filtered = filterToolsForAgent({
      tools: ['Agent', 'Bash', 'Glob', 'Read'].map(tool),
      isBuiltIn: false,
      isAsync: false,
      depth: 1,
    });
    expect(
      resolveAgentTools({ tools: ['Read', 'Glob'], source: 'project' }, filtered).tools.map((t) => t.name),
    ).toEqual(['Read', 'Glob']);
  });

  it('the fork type has no filtering of its own (it reuses the exact parent list in runAgent)', () => {
    const fork = BUILT_IN_AGENTS.find((a) => a.agentType === 'fork')!;
    expect(fork.tools).toEqual(['*']);
    expect(fork.disallowedTools).toBeUndefined();
  });
});

/** Gantry's tools, including those the other rooms add (names only matter here). */
const GANTRY = [
  'Agent',
  'AskUserQuestion',
  'Bash',
  'Edit',
  'EnterPlanMode',
  'ExitPlanMode',
  'Glob',
  'Grep',
  'NotebookEdit',
  'Read',
  'Skill',
  'TaskOutput',
  'TaskStop',
  'TodoWrite',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
  'Write',
  'mcp__github__create_issue',
];

describe("each type's list over Gantry's tools", () => {
  it.each<[string, boolean | undefined, string[]]>([
    [
      'general-purpose',
      false,
      [
        'Agent',
        'Bash',
        'Edit',
        'Glob',
        'Grep',
        'NotebookEdit',
        'Read',
        'Skill',
        'TaskOutput',
        'TodoWrite',
        'ToolSearch',
        'WebFetch',
        'WebSearch',
        'Write',
        'mcp__github__create_issue',
      ],
    ],
    [
      'Explore',
      false,
      [
        'Bash',
        'Glob',
        'Grep',
        'Read',
        'Skill',
        'TaskOutput',
        'TodoWrite',
        'ToolSearch',
        'WebFetch',
        'WebSearch',
        'mcp__github__create_issue',
      ],
    ],
    [
      'Plan',
      false,
      [
        'Bash',
        'Glob',
        'Grep',
        'Read',
        'Skill',
        'TaskOutput',
        'TodoWrite',
        'ToolSearch',
        'WebFetch',
        'WebSearch',
        'mcp__github__create_issue',
      ],
    ],
    [
      'verification',
      undefined,
      [
        'Bash',
        'Glob',
        'Grep',
        'Read',
        'Skill',
        'TaskOutput',
        'TodoWrite',
        'ToolSearch',
        'WebFetch',
        'WebSearch',
        'mcp__github__create_issue',
      ],
    ],
  ])('%s', (type, isAsync, expected) => {
    expect(listFor(type, GANTRY, isAsync)).toEqual(expected);
  });

  it('no type ever gets AskUserQuestion, plan-mode switches or TaskStop', () => {
    for (const def of BUILT_IN_AGENTS) {
      if (def.agentType === 'fork') continue;
      for (const isAsync of [false, true]) {
        const names = listFor(def.agentType, GANTRY, isAsync);
        for (const gone of ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'TaskStop'])
          expect(names).not.toContain(gone);
      }
    }
  });

  it('at the depth limit the Agent tool is gone (no unbounded recursion)', () => {
    const tools = GANTRY.map(tool);
    expect(
      filterToolsForAgent({ tools, isBuiltIn: true, isAsync: false, depth: 2 }).map((t) => t.name),
    ).toContain('Agent');
    expect(
      filterToolsForAgent({ tools, isBuiltIn: true, isAsync: false, depth: 3 }).map((t) => t.name),
    ).not.toContain('Agent');
  });
});
