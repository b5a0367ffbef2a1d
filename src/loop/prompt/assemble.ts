/**
 * Builds the request's `system` blocks once per session, in a fixed order, so their bytes never
 * change while the session runs (the prompt cache keys on them):
 *
 *   block 0  identity                                                       cache_control
 *   block 1  harness guidance · security · tool guidance · environment ·   cache_control
 *            memory files · appended text
 *
 * A custom system prompt (`systemPrompt: "<text>"`) takes block 0 and replaces identity, harness
 * guidance, tool guidance and environment; block 1 then holds the security section, the memory
 * files (when loaded) and the appended text. The security section is in both shapes: no option
 * removes it. Volatile facts (date, git status) are not here; see `environment.ts`.
 */
import type { SystemBlock } from '../../core/messages.js';
import type { SystemPromptOption } from '../types.js';
import { type EnvironmentFacts, environmentSection } from './environment.js';
import { HARNESS_TEXT } from './harness.js';
import { IDENTITY_TEXT } from './identity.js';
import { type MemoryFile, memorySection } from './memory.js';
import { SECURITY_SECTION_TEXT } from './security.js';

export interface AssembleSystemPromptOptions {
  systemPrompt?: SystemPromptOption;
  appendSystemPrompt?: string;
  /** Tools in request order; those with a non-empty `prompt` get a guidance section. */
  tools: readonly { name: string; prompt?: string }[];
  environment: EnvironmentFacts;
  memory: readonly MemoryFile[];
}

const CACHED = Object.freeze({ type: 'ephemeral' as const });

/** `# Tool guidance` with one subsection per tool that has a prompt; empty when none has. */
export function toolGuidanceSection(tools: readonly { name: string; prompt?: string }[]): string {
  const parts = tools
    .filter((t) => typeof t.prompt === 'string' && t.prompt.trim() !== '')
    .map((t) => `## ${t.name}\n${(t.prompt as string).trim()}`);
  return parts.length ? ['# Tool guidance', ...parts].join('\n\n') : '';
}

function join(parts: readonly string[]): string {
  return parts.filter((p) => p.trim() !== '').join('\n\n');
}

/** The session's system blocks (see the module comment). Pure: same input, same bytes. */
export function assembleSystemPrompt(options: AssembleSystemPromptOptions): SystemBlock[] {
  const option = options.systemPrompt;
  const append = join([
    typeof option === 'object' && option.append ? option.append : '',
    options.appendSystemPrompt ?? '',
  ]);
  const memory = memorySection(options.memory);
  if (typeof option === 'string') {
    const custom = option.trim() === '' ? '(no custom instructions)' : option;
    return [
      { type: 'text', text: custom, cache_control: { ...CACHED } },
      { type: 'text', text: join([SECURITY_SECTION_TEXT, memory, append]), cache_control: { ...CACHED } },
    ];
  }
  const body = join([
    HARNESS_TEXT,
    SECURITY_SECTION_TEXT,
    toolGuidanceSection(options.tools),
    environmentSection(options.environment),
    memory,
    append,
  ]);
  return [
    { type: 'text', text: IDENTITY_TEXT, cache_control: { ...CACHED } },
    { type: 'text', text: body, cache_control: { ...CACHED } },
  ];
}
