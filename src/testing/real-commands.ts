/**
 * The Bash commands of the shared real corpora (../shared/data/real): tldr examples, NL2Bash and the
 * `command` of every Bash call in the recorded agent sessions. For tests and benches only; see
 * shared-data.ts for how a missing ../shared is handled (an error under CI, a loud skip elsewhere).
 */
import { readFileSync } from 'node:fs';
import { sharedFile } from './shared-data.js';

/** Tool names the agent-session corpus uses for a shell call (Claude Code, Codex, OpenHands styles). */
const SHELL_TOOLS = new Set(['Bash', 'bash', 'execute_bash']);

/** The `command` of every shell tool call in JSONL lines of `{tool, input}` rows (blank lines skipped). */
export function bashCommandsOfToolCalls(lines: Iterable<string>): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (!line) continue;
    const row = JSON.parse(line) as { tool: string; input?: { command?: unknown } };
    if (SHELL_TOOLS.has(row.tool) && typeof row.input?.command === 'string') out.push(row.input.command);
  }
  return out;
}

/** The three corpora, or undefined when ../shared (or one of its files) is missing. */
export function realBashCorpora(): { tldr: string[]; nl2bash: string[]; agent: string[] } | undefined {
  const tldr = sharedFile('data/real/tldr-commands.jsonl');
  const nl2bash = sharedFile('data/real/nl2bash-commands.txt');
  const agent = sharedFile('data/real/agent-tool-calls.jsonl');
  if (!tldr || !nl2bash || !agent) return undefined;
  return {
    tldr: readFileSync(tldr, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { command: string }).command),
    nl2bash: readFileSync(nl2bash, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== ''),
    agent: bashCommandsOfToolCalls(readFileSync(agent, 'utf8').split('\n')),
  };
}
