/**
 * The `Bash` tool.
 *
 * One shell analysis per call: the command is analysed against the session's working directory
 * (from the context, never the process's) the first time a phase needs it, and every later phase
 * of the same call (the concurrency and read-only predicates, `describeCall`, the post-run step)
 * reuses that analysis. The memo is keyed by the parsed input object the runtime hands every phase
 * of one call, and by the working directory, so an updated input or a changed cwd is analysed anew.
 *
 * Phases: `validateInput` (foreground sleep > 2 s refused) → `describeCall` (shell analysis:
 * sub-commands for rule matching, effects, findings; awaits the parser first) → `call`:
 * - background: start the task (run-background.ts) and return its id at once;
 * - foreground: choose the start cwd (cwd.ts) → run (run-command.ts: own process group, output to
 *   a file, bounded memory, progress events, timeout/abort → SIGTERM then SIGKILL) → record the new
 *   session cwd (reset to the project root with a note when a `cd` left the allowed directories)
 *   → build the result (finish-foreground.ts: semantic exit codes, image output, 30,000-character
 *   excerpt with the full output spilled, git operations, destructive warning).
 *
 * `createBashTool(options)` takes the dependencies that vary per host: the sandbox seam
 * (spawn-spec.ts {@link BashSandbox}), the shell analysis port, the environment. Background tasks
 * go to the session's registry (`context.services.tasks`).
 * `BashTool` is the default instance (no sandbox) that the registry lists.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWorldOf } from '../../core/call-describer.js';
import { AbortError, buildTool, ToolExecutionError, type ToolUseContext } from '../../core/index.js';
import type { CommandAnalysis } from '../../shell/types.js';
import { claimSessionDir, enforceSessionCap } from '../file-io/session-files.js';
import {
  BashInput,
  BASH_MAX_RESULT_SIZE_CHARS,
  bashLimitsFromEnv,
  effectiveTimeoutMs,
} from './bash-input.js';
import { type BashOutput, mapBashResult } from './bash-output.js';
import { nextCwd, startCwd } from './cwd.js';
import { bashDescriber } from './describe.js';
import { destructiveWarning } from './destructive-warning.js';
import { finishForeground } from './finish-foreground.js';
import { startBackgroundCommand } from './run-background.js';
import { type BashProgress, runCommand } from './run-command.js';
import { defaultShellPort, type ShellAnalysisPort } from './shell-port.js';
import type { BashSandbox } from './spawn-spec.js';
import { blockedSleepMessage } from './validate-sleep.js';

export type { BashOutput } from './bash-output.js';
export type { BashProgress } from './run-command.js';

const description = readFileSync(
  fileURLToPath(new URL('./bash.prompt.md', import.meta.url)),
  'utf8',
).trimEnd();

export interface BashToolOptions {
  /** Wraps every spawn (foreground and background); see {@link BashSandbox}. Default: none. */
  sandbox?: BashSandbox;
  /** Shell analysis (default: `src/shell/index.ts`). */
  shell?: ShellAnalysisPort;
  /** Environment of commands and of the limits (`BASH_*_TIMEOUT_MS`, `BASH_MAX_OUTPUT_LENGTH`). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Overrides of the SIGTERM→SIGKILL grace (ms) and progress interval (ms), e.g. for tests. */
  killGraceMs?: number;
  progressIntervalMs?: number;
}

function truthy(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/** Builds a Bash tool bound to `options` (see {@link BashToolOptions}). */
export function createBashTool(options: BashToolOptions = {}) {
  const env = options.env ?? process.env;
  const shell = options.shell ?? defaultShellPort;
  const limits = {
    ...bashLimitsFromEnv(env),
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
  };
  const envFile = env.GANTRY_ENV_FILE ?? env.CLAUDE_ENV_FILE;
  const maintainProjectDir =
    truthy(env.GANTRY_BASH_MAINTAIN_PROJECT_WORKING_DIR) ||
    truthy(env.CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR);

  /** Analyses of the calls in flight, by parsed input object (see the module comment). */
  const analyses = new WeakMap<BashInput, { cwd: string; analysis: CommandAnalysis }>();
  /** The call's analysis against `cwd`: computed once, undefined while the parser is not ready. */
  const analysisOf = (input: BashInput, cwd: string): CommandAnalysis | undefined => {
    const hit = analyses.get(input);
    if (hit && hit.cwd === cwd) return hit.analysis;
    const analysis = shell.analyzeSync(input.command, cwd);
    if (analysis) analyses.set(input, { cwd, analysis });
    return analysis;
  };

  /**
   * The analysis the permission decision uses: the call's analysis, unless there is none yet or the
   * synchronous one stopped at its deadline (a short one while analysis workers run); then a fresh
   * one from `analyzeAsync` (a worker thread in the servers, the full deadline), which becomes the
   * call's analysis (docs/analysis-budget.md).
   */
  const decisionAnalysisOf = async (input: BashInput, cwd: string): Promise<CommandAnalysis | undefined> => {
    const hit = analyses.get(input);
    const complete =
      hit && hit.cwd === cwd && !hit.analysis.findings.some((f) => f.id === 'ANALYSIS_DEADLINE');
    if (complete || !shell.analyzeAsync) return analysisOf(input, cwd);
    const analysis = await shell.analyzeAsync(input.command, cwd);
    analyses.set(input, { cwd, analysis });
    return analysis;
  };

  /** The shared Bash describer (the guard's), here only for the classifier text. */
  const describer = bashDescriber(async (command, world) => {
    await shell.init();
    const analysis = shell.analyzeSync(command, world.cwd);
    if (!analysis) throw new ToolExecutionError('The shell analysis of this command failed.');
    return shell.describeAnalysis(analysis);
  });

  /**
   * Read-only exactly when the analysis proves it; false without a context (no session cwd to
   * analyse against) or while the parser is not initialised (fail closed).
   */
  const provenReadOnly = (input: BashInput, context?: ToolUseContext): boolean => {
    if (input.run_in_background || !context) return false;
    return analysisOf(input, context.getAppState().cwd)?.readOnly === true;
  };

  return buildTool({
    name: 'Bash',
    description,
    inputSchema: BashInput,
    maxResultSizeChars: BASH_MAX_RESULT_SIZE_CHARS,
    userFacingName: () => 'Bash',
    isReadOnly: provenReadOnly,
    isConcurrencySafe: provenReadOnly,
    isDestructive: (input: BashInput) =>
      destructiveWarning(shell.analyzeSync(input.command, process.cwd()), process.cwd()) !== undefined,
    toAutoClassifierInput: describer.toAutoClassifierInput,

    async validateInput(input: BashInput, _context?: ToolUseContext) {
      if (input.command.trim() === '') return { ok: false, message: 'command is empty.', field: 'command' };
      const sleep = blockedSleepMessage(input.command, input.run_in_background === true);
      return sleep ? { ok: false, message: sleep, field: 'command' } : { ok: true };
    },

    async describeCall(input: BashInput, context: ToolUseContext) {
      const cwd = context.getAppState().cwd;
      await shell.init();
      // The describer (also used by the guard) over this call's one analysis.
      const description = await bashDescriber(async (_command, world) => {
        const analysis = await decisionAnalysisOf(input, world.cwd);
        if (!analysis) {
          throw new ToolExecutionError(
            'The shell analysis of this command failed, so it cannot be checked and was not run.',
          );
        }
        return shell.describeAnalysis(analysis);
      }).describe(input, describeWorldOf(context));
      if (!options.sandbox?.decide) return description;
      const decision = await options.sandbox
        .decide({
          command: input.command,
          dangerouslyDisableSandbox: input.dangerouslyDisableSandbox === true,
          cwd,
        })
        .catch(() => ({ mode: 'unknown' }));
      return { ...description, sandboxed: decision.mode === 'sandboxed' };
    },

    async *call(input: BashInput, context: ToolUseContext) {
      const signal = context.abortController.signal;
      if (signal.aborted) throw new AbortError('The command was not started: the turn was aborted.');
      const state = context.getAppState();
      const start = startCwd(state);
      const notes = start.note ? [start.note] : [];
      if (start.note) context.setAppState((prev) => ({ ...prev, cwd: start.cwd }));
      const timeoutMs = effectiveTimeoutMs(input, limits);
      await shell.init().catch(() => undefined);
      // The destructive-floor table on the call's one analysis (the same the post-run step uses).
      const warning = destructiveWarning(analysisOf(input, start.cwd), start.cwd);
      const dangerouslyDisableSandbox = input.dangerouslyDisableSandbox === true;

      if (input.run_in_background) {
        const task = await startBackgroundCommand({
          command: input.command,
          description: input.description ?? input.command,
          cwd: start.cwd,
          timeoutMs,
          graceMs: limits.killGraceMs,
          context,
          env,
          ...(envFile ? { envFile } : {}),
          ...(options.sandbox ? { sandbox: options.sandbox } : {}),
          dangerouslyDisableSandbox,
        });
        const data: BashOutput = {
          stdout: '',
          stderr: notes.join('\n'),
          interrupted: false,
          isImage: false,
          exitCode: null,
          cwd: start.cwd,
          backgroundTaskId: task.taskId,
          backgroundOutputFile: task.outputFile,
          ...(warning ? { destructiveWarning: warning } : {}),
        };
        return { data };
      }

      const resultsDir = path.join(state.sessionDir, 'tool-results');
      claimSessionDir(state.sessionDir);
      await mkdir(resultsDir, { recursive: true });
      const stem = (context.toolUseId ?? `bash-${randomUUID()}`)
        .replace(/[^A-Za-z0-9_-]/g, '_')
        .slice(0, 128);
      const outputFile = path.join(resultsDir, `${stem}.bash-output.txt`);
      const sandboxInfo = { command: input.command, dangerouslyDisableSandbox, background: false };
      const run = yield* runCommand({
        command: input.command,
        cwd: start.cwd,
        timeoutMs,
        outputFile,
        signal,
        graceMs: limits.killGraceMs,
        maxOutputBytes: limits.maxOutputBytes,
        keepChars: limits.maxOutputChars,
        progressIntervalMs: limits.progressIntervalMs,
        env,
        ...(envFile ? { envFile } : {}),
        ...(options.sandbox ? { sandbox: options.sandbox } : {}),
        sandboxInfo,
      });
      const after = nextCwd({
        finalCwd: run.finalCwd,
        startedIn: start.cwd,
        state: context.getAppState(),
        maintainProjectDir,
      });
      if (after.cwd !== context.getAppState().cwd)
        context.setAppState((prev) => ({ ...prev, cwd: after.cwd }));
      if (after.note) notes.push(after.note);
      await shell.init().catch(() => undefined);
      const analysis = analysisOf(input, start.cwd);
      const data = await finishForeground({
        command: input.command,
        run,
        outputFile,
        limits,
        timeoutMs,
        cwd: start.cwd,
        notes,
        subcommands: analysis?.subcommands ?? [],
        interpretExitCode: (command, code) => shell.interpretExitCode(command, code),
        ...(warning ? { destructiveWarning: warning } : {}),
        ...(options.sandbox ? { sandbox: options.sandbox } : {}),
        sandboxInfo,
      });
      // A kept full output counts against the session's size cap (docs/reliability.md "Retention").
      if (data.persistedOutputPath)
        await enforceSessionCap(state.sessionDir, { keep: data.persistedOutputPath });
      return { data };
    },

    mapToolResultToContent: (output: BashOutput, _meta?: unknown) => mapBashResult(output),
  });
}

/** The default Bash tool (no sandbox, `src/shell` analysis, process env). */
export const BashTool = createBashTool();

/** Progress type re-exported for hosts that render Bash progress. */
export type BashToolProgress = BashProgress;
