/**
 * Interactive approval of a project's MCP servers (Claude Code documentation, "MCP": servers in a
 * project's `.mcp.json` start only after the person approves them). Before the first prompt, the
 * servers waiting for an answer are listed with what they run; the person ticks the ones to start
 * (Space ticks, Enter confirms; none are ticked at first, so Enter alone starts nothing). Each
 * answer is remembered for the entry as written (`~/.gantry/mcp-project-approvals.json`), so the
 * next session asks again only about new or changed entries. Escape starts none and remembers
 * nothing. `gantry -p` never asks (it uses the project's servers, as Claude Code's print mode does).
 */
import { isCancel, multiselect } from '@clack/prompts';
import type { Readable, Writable } from 'node:stream';
import type { McpServerConfig } from '../../mcp/client/config/types.js';
import type { Screen } from './screen.js';

export interface McpApprovalDeps {
  screen: Screen;
  input: Readable;
  output: Writable;
  pending: readonly McpServerConfig[];
  answer(name: string, approved: boolean): Promise<void>;
}

function target(c: McpServerConfig): string {
  if (c.entry.type === 'stdio') return [c.entry.command, ...c.entry.args].join(' ');
  return c.entry.type === 'sdk' ? 'in-process server' : `${c.entry.type} ${c.entry.url}`;
}

/** Asks about every pending project server; resolves once the approved ones connected (or failed). */
export async function approveProjectServers(deps: McpApprovalDeps): Promise<void> {
  const { screen, pending } = deps;
  if (!pending.length) return;
  const file = pending[0]?.file ?? '.mcp.json';
  screen.pause();
  let answer: string[] | symbol;
  try {
    answer = await multiselect<string>({
      message: `${file} asks to start ${pending.length === 1 ? 'an MCP server' : `${pending.length} MCP servers`}. Tick the ones you trust (Space ticks, Enter confirms):`,
      options: pending.map((c) => ({ value: c.name, label: c.name, hint: target(c) })),
      initialValues: [],
      required: false,
      input: deps.input,
      output: deps.output,
    });
  } finally {
    screen.resume();
  }
  if (isCancel(answer) || typeof answer === 'symbol') {
    screen.line(screen.style('dim', 'No project MCP server started; you will be asked again next time.'));
    return;
  }
  const chosen = new Set(answer);
  for (const c of pending) {
    const approved = chosen.has(c.name);
    try {
      await deps.answer(c.name, approved);
      screen.line(screen.style('dim', `MCP server ${c.name}: ${approved ? 'approved' : 'not started'}`));
    } catch (e) {
      screen.line(
        screen.style('red', `MCP server ${c.name}: the answer was not saved (${(e as Error).message})`),
      );
    }
  }
}
