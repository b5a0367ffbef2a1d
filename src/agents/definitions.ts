/**
 * Agent definitions: what a sub-agent of a given type is (its prompt, tools, model, mode, limits),
 * and the built-in types. Custom agents (Markdown files with YAML frontmatter, `--agents` JSON)
 * become the same shape in `load-agents.ts`. docs/agents.md describes the types and their tools.
 *
 * Built-in types:
 * - `general-purpose`: every tool the parent has (minus the global denylist of `filter-tools.ts`);
 * - `Explore`, `Plan`: read-only (no Agent, Edit, Write, NotebookEdit), no memory files, one shot;
 * - `verification`: tries to break the work it is given; read-only tools plus Bash; background;
 * - `fork`: the parent's own context (its system prompt bytes, exact tool list, conversation); see fork.ts.
 */
import type { PermissionMode } from '../core/index.js';

export type AgentSource = 'built-in' | 'user' | 'project' | 'gantry' | 'flag';

export interface AgentDefinition {
  /** The `subagent_type` that selects it (`general-purpose`, `Explore`, a custom `name`). */
  agentType: string;
  /** When to use it (shown to the model in the Agent tool's description). */
  whenToUse: string;
  /** The sub-agent's system prompt (its first block; the environment is appended). */
  prompt: string;
  /** Tool names the agent may use, in this order; `undefined` or `['*']` = every tool the parent has. */
  tools?: readonly string[];
  /** Tool names taken away (after `tools`). */
  disallowedTools?: readonly string[];
  /** `inherit` (default) = the parent's model; else an alias (`sonnet`, `opus`, `haiku`) or a model id. */
  model?: string;
  /** The mode it asks for; it only ever narrows the parent's (`narrowPermissionMode`). */
  permissionMode?: PermissionMode;
  maxTurns?: number;
  /** MCP servers the agent connects for itself (names of configured servers, or inline configs). */
  mcpServers?: readonly unknown[];
  /** Settings-style hooks that run only while this agent runs. */
  hooks?: Readonly<Record<string, unknown>>;
  /** Always runs in the background. */
  background?: boolean;
  isolation?: 'worktree';
  /** Leave the memory files (CLAUDE.md, AGENTS.md …) out of its prompt. */
  omitMemory?: boolean;
  /** Its report ends the exchange: the result carries no agent id to continue it. */
  oneShot?: boolean;
  source: AgentSource;
  /** Where a custom agent was defined. */
  filePath?: string;
}

/** Tools a read-only agent never gets. */
export const READ_ONLY_DISALLOWED: readonly string[] = [
  'Agent',
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'ExitPlanMode',
];

const READ_ONLY_RULES = [
  'You are in read-only mode: you have no tools that create, change or delete files, and you must',
  'not change anything through Bash either (no redirections into files, no installs, no git',
  'commits, no moves or deletions). Use Bash only for commands that read: ls, git log, git diff,',
  'git status, find, cat, head, wc.',
].join('\n');

const GENERAL_PURPOSE_PROMPT = [
  'You are a sub-agent of Gantry, a coding agent. Another agent gave you a task; do it completely',
  'with the tools you have, then answer with a report for that agent (it sees only your final',
  'message, not your tool calls).',
  '',
  '- Search broadly first when you do not know where something lives; read the files that matter.',
  '- Prefer changing existing files to creating new ones; never create documentation files unless',
  '  the task asks for them.',
  '- Use absolute paths in your report, and include the code snippets the other agent will need.',
  '- Say plainly what you did not finish or could not verify.',
].join('\n');

const EXPLORE_PROMPT = [
  'You are a search specialist working for Gantry, a coding agent. Find what the task asks for in',
  'the code base quickly and report it precisely.',
  '',
  READ_ONLY_RULES,
  '',
  '- Use Glob for file patterns, Grep for contents, Read for files you know.',
  '- Run independent searches in parallel.',
  '- Report absolute paths with line numbers and keep the report short and factual.',
].join('\n');

const PLAN_PROMPT = [
  'You are a software architect working for Gantry, a coding agent. Study the code that the task',
  'concerns and design how to implement it.',
  '',
  READ_ONLY_RULES,
  '',
  'Your report: the approach, the files to change (absolute paths) and how, the order of the',
  'steps, the risks and how to test the result. End with a list of the 3 to 5 files most critical',
  'to the plan.',
].join('\n');

const VERIFICATION_PROMPT = [
  'You are a verifier working for Gantry, a coding agent. Another agent says it finished some work;',
  'your job is to try to break it, not to confirm it.',
  '',
  READ_ONLY_RULES,
  "You may run the project's tests, builds, linters and small throw-away commands that read.",
  '',
  '- Check the claim against the code, run what proves or disproves it, probe edge cases.',
  '- Report each problem with how to reproduce it. End with one line: `VERDICT: PASS`,',
  '  `VERDICT: FAIL` or `VERDICT: PARTIAL`.',
].join('\n');

/** The fork type's own prompt is never sent: a fork reuses its parent's system blocks. */
export const FORK_AGENT_TYPE = 'fork';

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  {
    agentType: 'general-purpose',
    whenToUse:
      'General agent for researching complex questions, searching for code and carrying out multi-step tasks.',
    prompt: GENERAL_PURPOSE_PROMPT,
    tools: ['*'],
    source: 'built-in',
  },
  {
    agentType: 'Explore',
    whenToUse:
      'Fast read-only agent for exploring a code base: finding files by pattern, searching code, answering questions about it.',
    prompt: EXPLORE_PROMPT,
    disallowedTools: READ_ONLY_DISALLOWED,
    omitMemory: true,
    oneShot: true,
    source: 'built-in',
  },
  {
    agentType: 'Plan',
    whenToUse:
      'Read-only architect agent: designs an implementation plan, names the critical files and the trade-offs.',
    prompt: PLAN_PROMPT,
    disallowedTools: READ_ONLY_DISALLOWED,
    omitMemory: true,
    oneShot: true,
    source: 'built-in',
  },
  {
    agentType: 'verification',
    whenToUse:
      'Checks finished work by trying to break it (tests, edge cases); reports PASS, FAIL or PARTIAL. Runs in the background.',
    prompt: VERIFICATION_PROMPT,
    disallowedTools: READ_ONLY_DISALLOWED,
    background: true,
    source: 'built-in',
  },
  {
    agentType: FORK_AGENT_TYPE,
    whenToUse:
      'A copy of yourself with your whole conversation, for a side task; shares your prompt cache. Runs in the background.',
    prompt: '',
    tools: ['*'],
    model: 'inherit',
    background: true,
    source: 'built-in',
  },
];

/** The default type when `subagent_type` is left out. */
export const DEFAULT_AGENT_TYPE = 'general-purpose';
