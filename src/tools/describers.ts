/**
 * The describers of Gantry's tools, by tool name (docs/tool-traits.md "Describers"), for callers
 * that decide a call without running it: `gantry check`, `gantry hook`, `gantry replay`, the security
 * evaluation. Each entry is the very function the tool's own `describeCall` uses, so the runtime and
 * the guard describe a call the same way.
 *
 * This module stays light enough for the hook bundle: it imports the describers only (core, path
 * planning), never the tools (which load images, PDFs, ripgrep). The shell parser is loaded on the
 * first Bash or Monitor call.
 *
 * `Monitor` (Claude Code's, and Gantry's behind its flag): its `command` is a shell command line
 * that Bash rules govern, so it is described with the Bash describer; its `ws` is a network effect.
 */
import type { DescribeWorld, ToolDescriberEntry } from '../core/call-describer.js';
import { canonicalToolName } from '../core/tool-traits.js';
import { agentDescriber } from './agent/describe.js';
import { bashDescriber, type DescribeCommand, monitorDescriber } from './bash/describe.js';
import { editDescriber } from './edit/describe.js';
import { globDescriber } from './glob/describe.js';
import { grepDescriber } from './grep/describe.js';
import { lspDescriber } from './lsp/describe.js';
import { notebookEditDescriber } from './notebook-edit/describe.js';
import { readDescriber } from './read/describe.js';
import { sleepDescriber } from './sleep/describe.js';
import { sendMessageDescriber } from './send-message/describe.js';
import { listPeersDescriber, teamCreateDescriber, teamDeleteDescriber } from './teams/describe.js';
import { scheduleWakeupDescriber } from './schedule-wakeup/describe.js';
import { cronCreateDescriber, cronDeleteDescriber, cronListDescriber } from './cron/describe.js';
import { taskOutputDescriber, taskStopDescriber } from './tasks/describe.js';
import { webFetchDescriber } from './web-fetch/describe.js';
import { webSearchDescriber } from './web-search/describe.js';
import { writeDescriber } from './write/describe.js';
import { askUserQuestionDescriber } from './ask-user-question/describe.js';
import { enterPlanModeDescriber, exitPlanModeDescriber } from './plan-mode/describe.js';
import {
  taskCreateDescriber,
  taskGetDescriber,
  taskListDescriber,
  taskUpdateDescriber,
} from './task-list/describe.js';
import { todoWriteDescriber } from './todo-write/describe.js';
import { skillDescriber } from './skill/describe.js';
import { enterWorktreeDescriber, exitWorktreeDescriber } from './worktree/describe.js';
import { webBrowserDescriber } from './web-browser/describe.js';

/** The shell analysis, loaded on the first shell call (a Read-only hook never loads the parser). */
let shellModule: Promise<typeof import('../shell/index.js')> | undefined;

/** `describeBashCommand` from `src/shell`, loaded on first use, resolving paths through `world.resolver`. */
export const describeCommandLazily: DescribeCommand = async (command: string, world: DescribeWorld) => {
  shellModule ??= import('../shell/index.js');
  const shell = await shellModule;
  return shell.describeBashCommand(command, {
    cwd: world.cwd,
    home: world.home,
    resolver: world.resolver,
    ...(world.analysisDeadlineMs !== undefined ? { deadlineMs: world.analysisDeadlineMs } : {}),
  });
};

/** Options of {@link createToolDescribers}. */
export interface ToolDescribersOptions {
  /** The shell analysis for Bash and Monitor (default: `src/shell`, loaded lazily). */
  describeCommand?: DescribeCommand;
}

/** The describers by canonical tool name. */
export function createToolDescribers(
  options: ToolDescribersOptions = {},
): ReadonlyMap<string, ToolDescriberEntry> {
  const describeCommand = options.describeCommand ?? describeCommandLazily;
  const entries: ToolDescriberEntry[] = [
    readDescriber,
    writeDescriber,
    editDescriber,
    notebookEditDescriber,
    globDescriber,
    grepDescriber,
    bashDescriber(describeCommand),
    taskOutputDescriber,
    taskStopDescriber,
    sleepDescriber,
    lspDescriber,
    scheduleWakeupDescriber,
    cronCreateDescriber,
    cronDeleteDescriber,
    cronListDescriber,
    webFetchDescriber,
    webSearchDescriber,
    agentDescriber,
    sendMessageDescriber,
    teamCreateDescriber,
    teamDeleteDescriber,
    listPeersDescriber,
    todoWriteDescriber,
    taskCreateDescriber,
    taskGetDescriber,
    taskUpdateDescriber,
    taskListDescriber,
    askUserQuestionDescriber,
    enterPlanModeDescriber,
    exitPlanModeDescriber,
    skillDescriber,
    monitorDescriber(describeCommand),
    enterWorktreeDescriber,
    exitWorktreeDescriber,
    webBrowserDescriber,
  ];
  return new Map(entries.map((e) => [e.name, e]));
}

const defaultDescribers = createToolDescribers();

/** The describer for a tool name or alias (`KillBash` → TaskStop's), or undefined for tools Gantry does not describe. */
export function toolDescriberFor(
  toolName: string,
  describers: ReadonlyMap<string, ToolDescriberEntry> = defaultDescribers,
): ToolDescriberEntry | undefined {
  return describers.get(canonicalToolName(toolName));
}
