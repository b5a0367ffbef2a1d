/**
 * `Skill`: runs one of the session's skills (discovery.ts) by name.
 *
 * Sequence: find the skill (unknown or not model-invocable → input error listing the available
 * ones) → render its body (render.ts; inline commands through `context.callTool('Bash', …)` unless
 * disabled) → then either
 * - inline (default): the rendered body joins the conversation as a user message after the result
 *   (it stays for the session); `allowed-tools` / `disallowed-tools` are handed to
 *   `services.untilNextPrompt.addRules` (temporary rules until the person's next message; the
 *   host decides what it grants, and deny rules only narrow), `model` to `overrideModel`;
 * - `context: fork`: the body is the task of a sub-agent run through `services.runSubagent` (the
 *   agents room provides it; this tool never imports it), and its final text is the result.
 *
 * Output `{success, commandName, status: 'inline' | 'forked', allowedTools?, grantedRules?,
 * refusedRules?, model?, result?, agentId?}` — Gantry's shape (Claude Code leaves it open).
 */
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import {
  buildTool,
  type Message,
  ToolExecutionError,
  ToolInputError,
  type ToolUseContext,
} from '../../core/index.js';
import { skillDescriber, skillNameOf } from './describe.js';
import { discoverSkills, invocableSkills, type Skill, type SkillCatalog } from './discovery.js';
import { renderSkillBody } from './render.js';

export const SkillInput = z.strictObject({
  skill: z.string().min(1).describe('The name of a skill from the list of available skills'),
  args: z.string().optional().describe('Arguments for the skill'),
});
export type SkillInput = z.infer<typeof SkillInput>;

export interface SkillOutput {
  success: boolean;
  commandName: string;
  status: 'inline' | 'forked';
  allowedTools?: string[];
  grantedRules?: string[];
  refusedRules?: { rule: string; reason: string }[];
  model?: string;
  result?: string;
  agentId?: string;
}

export interface SkillToolOptions {
  /** The project root skills are found under (default: `process.cwd()` at creation). */
  projectRoot?: string;
  home?: string;
  /** A fixed catalog instead of discovery (tests, hosts with their own skills). */
  catalog?: SkillCatalog;
  /** Do not run inline `!` commands (default: env `GANTRY_DISABLE_SKILL_COMMANDS=1`). */
  disableCommands?: boolean;
}

/** The listing the model sees in the tool description: name and description only. */
export function skillListing(skills: readonly Skill[]): string {
  return skills.map((s) => `- ${s.name}: ${s.description}`).join('\n');
}

function find(skills: readonly Skill[], name: string | undefined): Skill | undefined {
  return name === undefined ? undefined : skills.find((s) => s.name === name);
}

/** Builds the Skill tool over the skills found for `options.projectRoot`; disabled when there are none. */
export function createSkillTool(options: SkillToolOptions = {}) {
  const projectRoot = options.projectRoot ?? process.cwd();
  const catalog =
    options.catalog ?? discoverSkills({ projectRoot, ...(options.home ? { home: options.home } : {}) });
  const skills = invocableSkills(catalog);
  const disableCommands = options.disableCommands ?? process.env.GANTRY_DISABLE_SKILL_COMMANDS === '1';
  const description =
    'Run a skill: a packaged set of instructions (and sometimes scripts) for a kind of task. When the ' +
    'request matches one of the available skills (listed in the session context), call this tool with ' +
    'its name first, before doing the work yourself, then follow the instructions it loads. Pass extra ' +
    'details in `args`. Use only names from that list; never guess one, and do not call a skill that is ' +
    'already loaded in this conversation.';

  return buildTool({
    name: 'Skill',
    description,
    inputSchema: SkillInput,
    maxResultSizeChars: 100_000,
    isEnabled: () => skills.length > 0,
    reminders: {
      sessionContext: () =>
        skills.length ? `Skills available through the Skill tool:\n${skillListing(skills)}` : undefined,
    },
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    userFacingName: () => 'Skill',
    toAutoClassifierInput: skillDescriber.toAutoClassifierInput,
    /** The catalog's problems (bad frontmatter, shadowed names), for diagnostics. */
    catalog,
    async describeCall(input: SkillInput, context: ToolUseContext) {
      return skillDescriber.describe(input, describeWorldOf(context));
    },
    async validateInput(input: SkillInput) {
      const name = skillNameOf(input);
      if (find(skills, name)) return { ok: true as const };
      const hidden = find(catalog.skills, name);
      return {
        ok: false as const,
        field: 'skill',
        message: hidden
          ? `The skill "${name}" can only be run by the user (disable-model-invocation is set).`
          : `Unknown skill "${name}". Available skills: ${skills.map((s) => s.name).join(', ') || 'none'}.`,
      };
    },
    async *call(input: SkillInput, context: ToolUseContext) {
      const skill = find(skills, skillNameOf(input));
      if (!skill) throw new ToolInputError(`Unknown skill "${input.skill}".`, 'skill');
      const callTool = context.callTool;
      const rendered = await renderSkillBody(skill.body, {
        skillDir: skill.dir,
        projectDir: context.getAppState().projectRoot,
        ...(input.args !== undefined ? { args: input.args } : {}),
        ...(!disableCommands && callTool
          ? {
              runCommand: async (command: string) => {
                const r = await callTool('Bash', {
                  command,
                  description: `Skill ${skill.name}: inline command`,
                });
                return { ok: r.ok, denied: r.denied, text: r.text };
              },
            }
          : {
              notRunReason: disableCommands
                ? 'inline skill commands are disabled'
                : 'this host cannot run nested tool calls',
            }),
      });
      const meta = skill.meta;
      if (meta.context === 'fork') {
        const run = context.services.runSubagent;
        if (!run)
          throw new ToolExecutionError(
            `The skill "${skill.name}" runs in a sub-agent (context: fork), but this session cannot start sub-agents.`,
          );
        const result = await run(
          {
            prompt: rendered.text,
            description: `skill ${skill.name}`,
            ...(meta.allowedTools.length ? { tools: meta.allowedTools } : {}),
            ...(meta.disallowedTools.length ? { disallowedTools: meta.disallowedTools } : {}),
            ...(meta.model ? { model: meta.model } : {}),
            ...(meta.agent ? { agentType: meta.agent } : {}),
          },
          context,
        );
        if (result.status !== 'completed')
          throw new ToolExecutionError(
            `The skill "${skill.name}" sub-agent ${result.status}: ${result.text}`,
          );
        const data: SkillOutput = {
          success: true,
          commandName: skill.name,
          status: 'forked',
          result: result.text,
          agentId: result.agentId,
        };
        return { data };
      }
      const controls = context.services.untilNextPrompt;
      let granted: string[] | undefined;
      let refused: { rule: string; reason: string }[] | undefined;
      if (meta.allowedTools.length || meta.disallowedTools.length) {
        if (controls) {
          const r = controls.addRules({
            allow: meta.allowedTools,
            deny: meta.disallowedTools,
            label: `skill ${skill.name}`,
            origin: skill.origin,
          });
          granted = r.granted;
          refused = r.refused;
        } else {
          refused = meta.allowedTools.map((rule) => ({
            rule,
            reason: 'this host grants no temporary rules; each call is decided as usual',
          }));
        }
      }
      if (meta.model) controls?.overrideModel?.(meta.model);
      const message: Message = {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `<skill name="${skill.name}" path="${skill.file}">\n${rendered.text.trim()}\n</skill>`,
          },
        ],
      };
      const data: SkillOutput = {
        success: true,
        commandName: skill.name,
        status: 'inline',
        ...(meta.allowedTools.length ? { allowedTools: meta.allowedTools } : {}),
        ...(granted ? { grantedRules: granted } : {}),
        ...(refused?.length ? { refusedRules: refused } : {}),
        ...(meta.model ? { model: meta.model } : {}),
      };
      return { data, newMessages: [message] };
    },
    mapToolResultToContent: (output: SkillOutput) =>
      output.status === 'forked'
        ? `Skill "${output.commandName}" ran in a sub-agent. Its result:\n\n${output.result ?? ''}`
        : `Launching skill: ${output.commandName}. Its instructions follow; carry them out.` +
          (output.refusedRules?.length
            ? `\nNot granted for this skill (${output.refusedRules.map((r) => `${r.rule}: ${r.reason}`).join('; ')}).`
            : ''),
  });
}
