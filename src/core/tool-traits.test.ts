import { describe, expect, it } from 'vitest';
import { getOwn, hasOwn } from './get-own.js';
import { isMcpToolName, parseMcpToolName } from './mcp-names.js';
import {
  canonicalToolName,
  contentField,
  EDIT_FAMILY_NAMES,
  foreignToolName,
  gantryTraits,
  TOOL_TRAITS,
  toolNamesOf,
  traitsFor,
  traitsOf,
} from './tool-traits.js';

const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
];

describe('tool-trait lookups', () => {
  it.each([
    ['TaskStop', 'TaskStop', 'canonical name'],
    ['KillShell', 'TaskStop', 'legacy alias'],
    ['KillBash', 'TaskStop', 'second legacy alias (the drift the table fixes)'],
    ['BashOutput', 'TaskOutput', 'legacy alias'],
    ['Task', 'Agent', 'renamed in 2.1.63'],
    ['Frobnicate', 'Frobnicate', 'unknown names come back unchanged'],
    ['mcp__srv__tool', 'mcp__srv__tool', 'MCP tools are not in the table'],
  ])('canonicalToolName(%s) = %s (%s)', (name, canonical) => {
    expect(canonicalToolName(name)).toBe(canonical);
  });

  it('a rule on any name of a tool covers all its names', () => {
    expect([...toolNamesOf('KillBash')].sort()).toEqual(['KillBash', 'KillShell', 'TaskStop']);
    expect([...toolNamesOf('Agent')].sort()).toEqual(['Agent', 'Task']);
    expect(toolNamesOf('Frobnicate')).toEqual(['Frobnicate']);
  });

  it.each(PROTOTYPE_NAMES)('the prototype name %s is an unknown tool with fail-closed traits', (name) => {
    expect(traitsOf(name)).toBeUndefined();
    const t = traitsFor(name);
    expect(t.name).toBe(name);
    expect(t).toMatchObject({
      aliases: [],
      ruleKind: 'content',
      noEffect: false,
      planModePass: false,
      editFamily: false,
      broadAllow: false,
      requiresUserInteraction: false,
    });
    expect(canonicalToolName(name)).toBe(name);
    expect(toolNamesOf(name)).toEqual([name]);
    expect(foreignToolName(name)).toBeUndefined();
  });

  it('no name appears twice across canonical names, aliases and foreign names', () => {
    const seen = new Set<string>();
    for (const t of TOOL_TRAITS.values()) {
      for (const n of [t.name, ...t.aliases, ...t.foreignNames.map((f) => f.name)]) {
        expect(seen.has(n), n).toBe(false);
        seen.add(n);
      }
    }
  });

  it('every row is consistent', () => {
    for (const t of TOOL_TRAITS.values()) {
      // A no-effect tool has nothing for plan mode to refuse.
      if (t.noEffect) expect(t.planModePass, t.name).toBe(true);
      // Shell, path and domain rules are about one primary field.
      if (['shell', 'path-read', 'path-edit', 'domain'].includes(t.ruleKind))
        expect(t.primaryFields.length, t.name).toBeGreaterThan(0);
      if (t.editFamily) expect(t.ruleKind, t.name).toBe('path-edit');
      for (const f of t.paramFields) expect(t.primaryFields.includes(f), `${t.name}.${f}`).toBe(false);
      expect(Object.isFrozen(t)).toBe(true);
    }
  });

  it('the edit family is every file writer and nothing else', () => {
    expect([...EDIT_FAMILY_NAMES].sort()).toEqual(['Edit', 'MultiEdit', 'NotebookEdit', 'Write']);
  });

  it('content rule kinds name their input field', () => {
    expect(contentField(traitsFor('Agent').ruleKind)).toBe('subagent_type');
    expect(contentField(traitsFor('Skill').ruleKind)).toBe('skill');
    expect(contentField(traitsFor('Bash').ruleKind)).toBeUndefined();
  });

  it('foreign names resolve to the tool and its field renames', () => {
    expect(foreignToolName('exec_command')).toMatchObject({
      traits: { name: 'Bash' },
      foreign: { fields: { cmd: 'command' } },
    });
    expect(foreignToolName('read_file')?.traits.name).toBe('Read');
  });

  it('gantryTraits refuses a name Gantry does not ship', () => {
    expect(gantryTraits('Read').name).toBe('Read');
    expect(() => gantryTraits('TodoWrite')).toThrow(/shippedBy 'gantry'/);
    expect(() => gantryTraits('constructor')).toThrow();
  });
});

describe('getOwn', () => {
  const table: Record<string, number> = { a: 1 };
  it.each(PROTOTYPE_NAMES)('does not answer the inherited %s', (name) => {
    expect(getOwn(table, name)).toBeUndefined();
    expect(hasOwn(table, name)).toBe(false);
  });
  it('answers own entries', () => {
    expect(getOwn(table, 'a')).toBe(1);
  });
});

describe('MCP names', () => {
  it.each([
    ['mcp__github__get_issue', { serverName: 'github', toolName: 'get_issue' }],
    ['mcp__github', { serverName: 'github' }],
    ['mcp__a__b__c', { serverName: 'a', toolName: 'b__c' }],
    ['Read', undefined],
    ['constructor', undefined],
  ])('parseMcpToolName(%s)', (name, parts) => {
    expect(parseMcpToolName(name)).toEqual(parts);
    expect(isMcpToolName(name)).toBe(parts !== undefined);
  });
});
