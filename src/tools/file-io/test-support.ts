/**
 * Test support for the file tools (imported by tests only): a real ToolUseContext over a temp
 * directory, and `runTool`, which walks a call through the tool's own steps in pipeline order
 * (schema parse → validateInput → call → mapToolResultToContent), as the runtime does
 * (design.md §2), and throws the first failure.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnyTool, AppState, ToolResultContent, ToolUseContext } from '../../core/index.js';
import { ReadFileState, ToolInputError } from '../../core/index.js';

/** A ToolUseContext whose app state lives in a plain variable. */
export function makeContext(options: {
  cwd: string;
  compat?: Record<string, unknown>;
  readFileState?: ReadFileState;
  sessionDir?: string;
}): ToolUseContext {
  let state: AppState = {
    sessionId: 'test-session',
    projectRoot: options.cwd,
    cwd: options.cwd,
    additionalDirectories: [],
    permissionMode: 'default',
    sessionDir: options.sessionDir ?? path.join(options.cwd, '.session'),
    tasks: {},
  };
  return {
    abortController: new AbortController(),
    options: {
      tools: [],
      mainLoopModel: 'test-model',
      mcpClients: [],
      thinkingConfig: { type: 'disabled' },
      ...(options.compat ? { compat: options.compat } : {}),
    },
    getAppState: () => state,
    setAppState: (updater) => {
      state = updater(state);
    },
    setAppStateForTasks: (updater) => {
      state = updater(state);
    },
    readFileState: options.readFileState ?? new ReadFileState(),
    messages: [],
    toolDecisions: new Map(),
  };
}

/** The outcome of one call: the tool's output and what the model would see. */
export interface ToolRun<O> {
  data: O;
  content: ToolResultContent;
  progress: unknown[];
}

/**
 * Runs `tool` on raw `input`.
 * @throws ToolInputError for schema or validateInput failures (message as the model would see it),
 *   or whatever the tool's `call` throws.
 */
export async function runTool<O = unknown>(
  tool: AnyTool,
  input: unknown,
  context: ToolUseContext,
): Promise<ToolRun<O>> {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) throw new ToolInputError(`InputValidationError: ${parsed.error.message}`);
  const validation = await tool.validateInput(parsed.data, context);
  if (!validation.ok) throw new ToolInputError(validation.message, validation.field);
  const generator = tool.call(parsed.data, context);
  const progress: unknown[] = [];
  for (;;) {
    const step = await generator.next();
    if (step.done) {
      const data = step.value.data as O;
      return { data, content: tool.mapToolResultToContent(data, 'toolu_test'), progress };
    }
    progress.push(step.value);
  }
}

/** Runs `tool` and returns the error message it fails with (fails the test if it succeeds). */
export async function runToolError(tool: AnyTool, input: unknown, context: ToolUseContext): Promise<string> {
  try {
    await runTool(tool, input, context);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error(`expected ${tool.name} to fail on ${JSON.stringify(input).slice(0, 200)}`);
}

/** Creates a temp directory; `cleanup` removes it. */
export async function makeTempDir(
  prefix = 'gantry-file-tools-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
