/**
 * The deferred tools' names as the model first sees them: a section of the per-session context
 * block (the loop puts it in the session's context message), one name per line, plus the note the
 * loop adds when the set changes during a session (a server connected late, `list_changed`).
 * Wording is Gantry's own. docs/mcp-client.md "Deferred tools".
 */

/** The section for `names` (in pool order); `''` when there are none. */
export function renderDeferredToolsSection(names: readonly string[]): string {
  if (!names.length) return '';
  return [
    '# Deferred tools',
    'These tools are available, but only their names are loaded. Before calling one, load its definition with the ToolSearch tool (for example `select:<name>`, or keywords); calling it unloaded fails because its parameters are unknown.',
    ...names,
  ].join('\n');
}

/** A note for tools that became available (or went away) since the section was sent; `''` when nothing changed. */
export function renderDeferredToolsDelta(added: readonly string[], removed: readonly string[] = []): string {
  const parts: string[] = [];
  if (added.length)
    parts.push(
      `New deferred tools are available (load them with ToolSearch before use):\n${added.join('\n')}`,
    );
  if (removed.length) parts.push(`These deferred tools are no longer available:\n${removed.join('\n')}`);
  return parts.join('\n\n');
}
