/**
 * The describer shared by the file tools (docs/tool-traits.md "Describers"): the permission target
 * is the absolute, symlink-resolved path, and the one effect is a read or write of it, stated from
 * the tool's own input field. When a symlink was followed, the path as named is a second effect (and
 * rule target), so a deny rule written against the link's own name still matches (the shell analysis
 * reports both paths the same way).
 *
 * Pure: paths resolve through `world.resolver`. The input may come straight from a host (not
 * schema-checked): a missing, empty or non-string path field gives an `unknown` effect, which never
 * allows.
 */
import type { DescribeWorld } from '../../core/call-describer.js';
import { stringField } from '../../core/call-describer.js';
import { knownEffect, unknownEffect } from '../../core/effects.js';
import { expandPath, invalidPathMessage } from '../../core/paths.js';
import type { CallDescription } from '../../core/permission-types.js';

/**
 * Describes a file tool call on the path in `input[field]`.
 * @param kind - `read` for readers (the call is then read-only), `write` for writers.
 * @param field - the input field the path comes from (`file_path`, `notebook_path`).
 */
export function describeFileCall(options: {
  toolName: string;
  kind: 'read' | 'write';
  field: string;
  input: Readonly<Record<string, unknown>>;
  world: DescribeWorld;
}): CallDescription {
  const { toolName, kind, field, world } = options;
  const requested = stringField(options.input, field);
  if (requested === undefined) {
    const raw = Object.hasOwn(options.input, field) ? options.input[field] : undefined;
    return {
      ruleContents: [],
      effects: [unknownEffect(kind, String(raw), 'tool-input', `${field} is missing`)],
      findings: [],
      readOnly: false,
      summary: `${toolName} (no ${field})`,
    };
  }
  const bad = invalidPathMessage(field, requested);
  if (bad) {
    // Never a target: a NUL would cut the path (the part before it is not what was asked).
    return {
      ruleContents: [],
      effects: [unknownEffect(kind, requested, 'tool-input', `${field} is not a valid path`)],
      findings: [{ id: 'INVALID_PATH', message: bad, behavior: 'ask' }],
      readOnly: false,
      summary: `${toolName} (invalid ${field})`,
    };
  }
  const absolute = expandPath(requested, world);
  const resolved = world.resolver.realpath(absolute);
  const viaSymlink = resolved !== absolute;
  const detail = viaSymlink ? `${field} via symlink ${absolute}` : field;
  return {
    ruleContents: viaSymlink ? [resolved, absolute] : [resolved],
    effects: [
      knownEffect(kind, resolved, 'tool-input', detail),
      ...(viaSymlink ? [knownEffect(kind, absolute, 'tool-input', `${field} as named (a symlink)`)] : []),
    ],
    findings: [],
    readOnly: kind === 'read',
    summary: `${toolName} ${resolved}`,
  };
}
