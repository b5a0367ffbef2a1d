/**
 * Fail closed on broken settings (docs/security-round-2.md "Broken settings"). A settings file that
 * does not parse, or whose deny/ask lists, mode or hooks have the wrong shape, may have held
 * restrictions the engine can no longer see; until it is fixed, every call those restrictions could
 * have covered asks (and is denied where nobody can be asked), and the reason names the file, the
 * line and the error.
 */
import type { BrokenSetting } from './types.js';

/** The tool a malformed rule names (`Bash(rm -rf:*` → Bash), or every tool when no name can be read. */
export function ruleToolScope(text: string): BrokenSetting['scope'] {
  const m = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s*(?:\(|$)/.exec(text);
  return m?.[1] ? { toolName: m[1] } : 'all';
}

/** `/home/u/.claude/settings.json:3: invalid JSON at line 3 …`. */
export function describeBroken(b: BrokenSetting): string {
  return `${b.file}${b.line !== undefined ? `:${b.line}` : ''}: ${b.message}`;
}

/**
 * The broken settings that could have restricted a call of `toolName`: scope `all`, a malformed
 * rule of this tool (`matchesTool` applies the rule set's aliases: a broken `Task(…)` rule covers
 * Agent too), and — when `sandboxed` — the sandbox settings.
 */
export function brokenCovering(
  broken: readonly BrokenSetting[],
  toolName: string,
  matchesTool: (ruleTool: string, toolName: string) => boolean,
  sandboxed: boolean,
): BrokenSetting[] {
  return broken.filter((b) =>
    b.scope === 'all' ? true : b.scope === 'sandbox' ? sandboxed : matchesTool(b.scope.toolName, toolName),
  );
}
