/**
 * Renders a skill's body for the model (Claude Code documentation, "Agent Skills"):
 *
 * 1. substitutions: `${CLAUDE_SKILL_DIR}` → the skill's folder, `${CLAUDE_PROJECT_DIR}` → the
 *    project root, `$ARGUMENTS` → the call's `args` (when the body has no `$ARGUMENTS`, non-empty
 *    args are appended as an `ARGUMENTS:` line);
 * 2. inline commands: each `` !`command` `` is run through the Bash tool (`runCommand`, i.e. the
 *    session's `callTool`, with Bash's permission checks and hooks) and replaced by its output; a
 *    refused or failed command is replaced by a note saying so. With commands disabled, or no
 *    way to run them, each is replaced by a note and nothing runs.
 */
export interface RenderOptions {
  skillDir: string;
  projectDir: string;
  args?: string;
  /** Runs one command; absent → commands are not run. */
  runCommand?: (command: string) => Promise<{ ok: boolean; denied: boolean; text: string }>;
  /** Why commands are not run (shown in their place) when `runCommand` is absent. */
  notRunReason?: string;
}

export interface RenderedSkill {
  text: string;
  /** The inline commands, in order, and what became of each. */
  commands: { command: string; status: 'ran' | 'failed' | 'denied' | 'not-run' }[];
}

/** `` !`…` `` at the start of a line or after whitespace; the command has no backtick or newline. */
const INLINE_COMMAND = /(^|[\s(])!`([^`\n]+)`/g;

export async function renderSkillBody(body: string, options: RenderOptions): Promise<RenderedSkill> {
  const args = options.args?.trim() ?? '';
  let text = body
    .replaceAll('${CLAUDE_SKILL_DIR}', options.skillDir)
    .replaceAll('${CLAUDE_PROJECT_DIR}', options.projectDir);
  if (text.includes('$ARGUMENTS')) text = text.replaceAll('$ARGUMENTS', args);
  else if (args) text = `${text.trimEnd()}\n\nARGUMENTS: ${args}\n`;

  const commands: RenderedSkill['commands'] = [];
  const matches = [...text.matchAll(INLINE_COMMAND)];
  if (matches.length === 0) return { text, commands };
  const outputs: string[] = [];
  for (const m of matches) {
    const command = m[2]!;
    if (!options.runCommand) {
      commands.push({ command, status: 'not-run' });
      outputs.push(`[command not run: ${options.notRunReason ?? 'inline commands are disabled'}]`);
      continue;
    }
    const r = await options.runCommand(command);
    commands.push({ command, status: r.ok ? 'ran' : r.denied ? 'denied' : 'failed' });
    outputs.push(r.ok ? r.text.trimEnd() : `[command ${r.denied ? 'refused' : 'failed'}: ${r.text.trim()}]`);
  }
  let i = 0;
  text = text.replace(INLINE_COMMAND, (_all, lead: string) => `${lead}${outputs[i++] ?? ''}`);
  return { text, commands };
}
