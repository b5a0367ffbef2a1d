/**
 * `describeCall` for the file tools (design.md §2 step 4, §3): the permission target is the
 * absolute, symlink-resolved path, and the one effect is a read or write of it, stated from the
 * tool's own input field. When a symlink was followed, the path as named is a second effect (and
 * rule target), so a deny rule written against the link's own name still matches (the shell analysis
 * reports both paths the same way).
 */
import type { CallDescription, ToolUseContext } from '../../core/index.js';
import { knownEffect, unknownEffect } from '../../core/index.js';
import { pathCharacterFindings } from '../../core/path-characters.js';
import { resolveFilePath } from './resolve-path.js';

/**
 * Describes a file tool call on `requestedPath`.
 * @param kind - `read` for Read (the call is then read-only), `write` for Write/Edit/NotebookEdit.
 * @param field - the input field the path came from (`file_path`, `notebook_path`).
 */
export function describeFileCall(options: {
  toolName: string;
  kind: 'read' | 'write';
  field: string;
  requestedPath: string;
  context: Pick<ToolUseContext, 'getAppState'>;
}): CallDescription {
  // A NUL byte or a control character: the file opened is not the one judged (core/path-characters.ts).
  const odd = pathCharacterFindings(options.requestedPath, options.field);
  if (odd.length)
    return {
      ruleContents: [],
      effects: [
        unknownEffect(
          options.kind,
          options.requestedPath,
          'tool-input',
          `${options.field} with control characters`,
        ),
      ],
      findings: odd,
      readOnly: false,
      summary: `${options.toolName} ${JSON.stringify(options.requestedPath)}`,
    };
  const p = resolveFilePath(options.requestedPath, options.context);
  const detail = p.viaSymlink ? `${options.field} via symlink ${p.absolute}` : options.field;
  const named = p.viaSymlink && p.absolute !== p.resolved;
  return {
    ruleContents: named ? [p.resolved, p.absolute] : [p.resolved],
    effects: [
      knownEffect(options.kind, p.resolved, 'tool-input', detail),
      ...(named
        ? [knownEffect(options.kind, p.absolute, 'tool-input', `${options.field} as named (a symlink)`)]
        : []),
    ],
    findings: [],
    readOnly: options.kind === 'read',
    summary: `${options.toolName} ${p.resolved}`,
  };
}
