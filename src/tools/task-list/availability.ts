/**
 * Which to-do tools a session gets (Claude Code documentation, "Tools reference" and environment
 * variables): the Task tools (TaskCreate, TaskGet, TaskUpdate, TaskList) by default;
 * `CLAUDE_CODE_ENABLE_TASKS=0` (or `false`) brings TodoWrite back in their place.
 */
export function taskToolsEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const raw = env.CLAUDE_CODE_ENABLE_TASKS?.trim().toLowerCase();
  return !(raw === '0' || raw === 'false');
}
