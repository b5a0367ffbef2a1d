/**
 * Hook matchers (the Claude Code hooks reference): `*`, `""` or none match every tool; a string of only letters, digits,
 * `_`, `-`, spaces, `,` and `|` is an exact name or a list split on `|`/`,`; anything else is an
 * unanchored JavaScript regex (`Edit.*` also hits `NotebookEdit`). An invalid regex matches nothing
 * and is reported by the caller.
 */

export type ToolMatcher = (toolName: string) => boolean;

/** Compiles a matcher; returns an error message instead for an invalid regex. */
export function compileHookMatcher(matcher: string | undefined): ToolMatcher | { error: string } {
  const m = matcher?.trim() ?? '';
  if (m === '' || m === '*') return () => true;
  if (/^[A-Za-z0-9_\- ,|]+$/.test(m)) {
    const names = new Set(
      m
        .split(/[|,]/)
        .map((s) => s.trim())
        .filter(Boolean),
    );
    return (t) => names.has(t);
  }
  try {
    const re = new RegExp(m);
    return (t) => re.test(t);
  } catch (e) {
    return { error: `invalid hook matcher regex ${JSON.stringify(m)}: ${(e as Error).message}` };
  }
}
