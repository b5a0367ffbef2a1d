/**
 * `gantry replay --execute --workspace DIR`: runs the replayed calls Gantry would allow and that are
 * read-only, against a workspace — never against the recorded paths.
 *
 * Each call is re-rooted: the recorded project root is replaced by the workspace in its cwd, its
 * path fields and (as text) in Bash commands. The re-rooted call is decided again under the
 * workspace (fail closed: it must still be allowed and read-only), then run through the real tool
 * runtime. Calls that leave the recorded project (absolute paths elsewhere) stay outside the
 * workspace and are therefore refused by that second decision.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type AnyTool, contentText, isPathInside, type PermissionDecider } from '../../core/index.js';
import { createToolRuntime, type ToolRuntime } from '../../runtime/index.js';
import { sessionDirFor } from '../../tools/file-io/session-files.js';
import { getAllBaseTools } from '../../tools/index.js';
import { createGuard, type Guard, type GuardOptions } from '../shared/guard.js';
import type { ReplayRow } from './replay.js';

/** Tools `--execute` may run (read-only by nature or proven read-only per call). */
export const EXECUTABLE_TOOLS = new Set(['Read', 'Glob', 'Grep', 'Bash']);

export interface ExecutionReport {
  executed: number;
  toolErrors: number;
  skipped: number;
  /** Per executed call: id, tool, error text when the tool failed. */
  results: { toolUseId: string; tool: string; isError: boolean; text: string }[];
}

function reroot(value: string, from: string, to: string): string {
  if (from === '/' || from === '') return value;
  return value.split(from).join(to);
}

/** Re-roots a recorded call into the workspace (see module doc). */
export function rerootCall(
  row: Pick<ReplayRow, 'input' | 'cwd' | 'projectRoot'>,
  workspace: string,
): { input: Record<string, unknown>; cwd: string } {
  // Object.fromEntries defines own properties: a recorded `__proto__` key stays a plain key.
  const input: Record<string, unknown> = Object.fromEntries(
    Object.entries(row.input).map(([k, v]) => [
      k,
      typeof v === 'string' && (k === 'command' || k.endsWith('path'))
        ? reroot(v, row.projectRoot, workspace)
        : v,
    ]),
  );
  const cwd = isPathInside(row.cwd, row.projectRoot)
    ? path.join(workspace, path.relative(row.projectRoot, row.cwd))
    : workspace;
  return { input, cwd };
}

export class ReplayExecutor {
  private runtime: ToolRuntime | undefined;
  private guard: Guard;
  readonly report: ExecutionReport = { executed: 0, toolErrors: 0, skipped: 0, results: [] };

  private readonly home: string | undefined;

  constructor(
    private readonly workspace: string,
    guardOptions: Partial<GuardOptions> = {},
  ) {
    mkdirSync(workspace, { recursive: true });
    this.guard = createGuard({ cwd: workspace, ...guardOptions });
    this.home = guardOptions.home;
  }

  private async getRuntime(): Promise<ToolRuntime> {
    if (!this.runtime) {
      const tools: AnyTool[] = (await getAllBaseTools()).filter((t) => EXECUTABLE_TOOLS.has(t.name));
      // Second line of defence: the runtime's decider is the same engine, rooted at the workspace.
      const decide: PermissionDecider = (req) => this.guard.engine.decide(req, { skipHooks: true });
      // Spilled output goes to a session directory under the replay's home (~/.gantry/sessions).
      const sessionDir = sessionDirFor(`replay-${randomUUID()}`, this.home);
      this.runtime = createToolRuntime({ tools, cwd: this.workspace, decide, sessionDir });
    }
    return this.runtime;
  }

  /** Runs one replayed row if it is allowed, read-only and executable; returns whether it ran. */
  async maybeExecute(row: ReplayRow): Promise<boolean> {
    if (row.decision !== 'allow' || !row.readOnly || !EXECUTABLE_TOOLS.has(row.toolName)) {
      this.report.skipped++;
      return false;
    }
    const { input, cwd } = rerootCall(row, this.workspace);
    const again = await this.guard.check(row.toolName, input, { cwd, mode: 'default' });
    if (again.detailed.decision.behavior !== 'allow' || !again.description.readOnly) {
      this.report.skipped++;
      return false;
    }
    const runtime = await this.getRuntime();
    runtime.context.setAppState((s) => ({
      ...s,
      cwd: isPathInside(cwd, this.workspace) ? cwd : this.workspace,
    }));
    const turn = await runtime.runToolsToCompletion([
      { type: 'tool_use', id: row.call.toolUseId, name: row.toolName, input },
    ]);
    const block = turn.results[0];
    const isError = block?.is_error === true;
    this.report.executed++;
    if (isError) this.report.toolErrors++;
    this.report.results.push({
      toolUseId: row.call.toolUseId,
      tool: row.toolName,
      isError,
      text: block ? contentText(block.content).slice(0, 300) : '',
    });
    return true;
  }
}
