/**
 * CLI permission flags (the Claude Code permissions docs, the Claude Code headless-mode docs): `--allowedTools` / `--disallowedTools` take rules
 * separated by commas or whitespace, where separators inside parentheses belong to the rule
 * (`--allowedTools "Bash(git log:*) Edit,Read(./src/**)"` → three rules).
 */
import type { PermissionMode } from '../../core/permission-types.js';
import { PERMISSION_MODES } from '../../core/permission-types.js';

/** Splits one flag value into rule texts (separators inside `(...)` are kept). */
export function splitToolList(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Parses a mode name; `manual` is Claude Code's alias of `default` (the Claude Code permissions docs). */
export function parsePermissionMode(value: string): PermissionMode | undefined {
  const v = value.trim();
  if (v === 'manual') return 'default';
  return (PERMISSION_MODES as readonly string[]).includes(v) ? (v as PermissionMode) : undefined;
}
