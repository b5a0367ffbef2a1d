/**
 * Call descriptions for the host tools Gantry has no tool object for (Claude Code's MultiEdit, LS,
 * LSP, WebFetch, Agent, Skill, TodoWrite, …), built from the input and the tool's row in the trait
 * table (core/tool-traits.ts). Gantry's own tools are described by their own describers
 * (`src/tools/<name>/describe.ts`), which the guard dispatches to first; this is the fallback for
 * every other name. See docs/tool-traits.md "Describers".
 *
 * | rule kind | effects |
 * |---|---|
 * | `path-read` | read the path in the tool's primary field (LS without `path`: the cwd; else absent = unknown) |
 * | `path-edit` | write the path in the primary field (absent: unknown, never allows) |
 * | `domain` | network `url`; rule contents `domain:<host>` |
 * | `content:<field>` | none; rule contents the field's value (`Agent(Explore)`, `Skill(x)`) |
 * | anything else | none (no-effect tools are allowed by the engine from their trait; others ask) |
 * | a Gantry tool | an unknown effect (ask): use the tool's own describer |
 *
 * Paths are NOT symlink-resolved here: the engine resolves every file effect itself (and checks both
 * the named and the resolved path). Field reads are own-property reads of an unchecked input.
 */
import type { ToolDescriberEntry } from '../core/call-describer.js';
import { stringField } from '../core/call-describer.js';
import { knownEffect, unknownEffect } from '../core/effects.js';
import { expandPath, invalidPathMessage } from '../core/paths.js';
import type { CallDescription } from '../core/permission-types.js';
import { contentField, traitsFor } from '../core/tool-traits.js';
import { hostOf } from './rules/domain-pattern.js';

const noEffects = (summary: string, ruleContents: string[] = []): CallDescription => ({
  ruleContents,
  effects: [],
  findings: [],
  readOnly: false,
  summary,
});

/** Describes a host tool's call from its input and its traits (see module doc). Never throws. */
export function describeToolInput(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  world: { cwd: string; home: string },
): CallDescription {
  const traits = traitsFor(toolName);
  // Gantry's own tools have their own describers (Glob plans its pattern, Bash needs the shell
  // analysis); describing them from traits alone could understate a call, so it asks instead.
  if (traits.shippedBy === 'gantry')
    return {
      ruleContents: [],
      effects: [
        unknownEffect('exec', toolName, 'tool-input', `${toolName} is described by its own describer`),
      ],
      findings: [],
      readOnly: false,
      summary: `${toolName} (not described here)`,
    };
  const kind = traits.ruleKind;
  const field = traits.primaryFields[0];
  if ((kind === 'path-read' || kind === 'path-edit') && field) {
    const access = kind === 'path-read' ? 'read' : 'write';
    const raw = stringField(input, field);
    // A directory listing without `path` lists the cwd (LS); any other missing path is unknown.
    if (raw === undefined && access === 'read' && field === 'path' && !Object.hasOwn(input, field)) {
      return {
        ruleContents: [world.cwd],
        effects: [knownEffect('read', world.cwd, 'tool-input', `${field} absent: the cwd`)],
        findings: [],
        readOnly: true,
        summary: `${toolName} ${world.cwd}`,
      };
    }
    if (raw === undefined)
      return {
        ruleContents: [],
        effects: [
          unknownEffect(
            access,
            String(Object.hasOwn(input, field) ? input[field] : undefined),
            'tool-input',
            `${field} is missing`,
          ),
        ],
        findings: [],
        readOnly: false,
        summary: `${toolName} (no ${field})`,
      };
    const bad = invalidPathMessage(field, raw);
    if (bad)
      return {
        ruleContents: [],
        effects: [unknownEffect(access, raw, 'tool-input', `${field} is not a valid path`)],
        findings: [{ id: 'INVALID_PATH', message: bad, behavior: 'ask' }],
        readOnly: false,
        summary: `${toolName} (invalid ${field})`,
      };
    const abs = expandPath(raw, world);
    return {
      ruleContents: [abs],
      effects: [knownEffect(access, abs, 'tool-input', field)],
      findings: [],
      readOnly: access === 'read',
      summary: `${toolName} ${abs}`,
    };
  }
  if (kind === 'domain' && field) {
    const url = stringField(input, field) ?? '';
    const host = hostOf(url);
    return {
      ruleContents: host ? [`domain:${host}`] : [],
      effects: host
        ? [knownEffect('network', url, 'tool-input', field)]
        : [unknownEffect('network', url, 'tool-input', field)],
      findings: [],
      readOnly: true,
      summary: `${toolName} ${url}`,
    };
  }
  const content = contentField(kind);
  if (content) {
    const value = stringField(input, content);
    return noEffects(value ? `${toolName} ${value}` : toolName, value ? [value] : []);
  }
  return noEffects(toolName);
}

/** The host describer as a describer entry (classifier text: the primary or content field's value). */
export function hostToolDescriber(toolName: string): ToolDescriberEntry {
  const traits = traitsFor(toolName);
  const field = contentField(traits.ruleKind) ?? traits.primaryFields[0];
  return {
    name: toolName,
    describe: (input, world) => describeToolInput(toolName, input, world),
    toAutoClassifierInput: (input) => {
      const v = field ? stringField(input, field) : undefined;
      return v ? `${toolName} ${v}` : '';
    },
  };
}
