/**
 * Test support for the Bash and task tools (only tests and the benchmark import it): a real temp
 * project and session directory, a ToolUseContext over a mutable AppState that records progress
 * events and task notifications, and `runTool`, which drives a tool's `call` generator the way the
 * runtime does (progress → result) and returns the result or the thrown error.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type AnyTool,
  type AppState,
  type BackgroundTaskInfo,
  ReadFileState,
  type ToolProgressEvent,
  type ToolUseContext,
} from '../../core/index.js';

export interface TestSession {
  /** Project root (physical path). */
  root: string;
  sessionDir: string;
  context: ToolUseContext;
  state(): AppState;
  progress: ToolProgressEvent[];
  notifications: { task: BackgroundTaskInfo; summary: string }[];
  /** Resolves with the next task notification. */
  nextNotification(): Promise<{ task: BackgroundTaskInfo; summary: string }>;
  cleanup(): Promise<void>;
}

/** A temp project (`<tmp>/gantry-bash-…/project`) with its session dir, and a context over it. */
export async function makeTestSession(
  options: { additionalDirectories?: string[] } = {},
): Promise<TestSession> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'gantry-bash-')));
  const root = path.join(base, 'project');
  const sessionDir = path.join(base, 'session');
  await import('node:fs/promises').then((fs) => fs.mkdir(root, { recursive: true }));
  let state: AppState = {
    sessionId: 'test-session',
    projectRoot: root,
    cwd: root,
    additionalDirectories: options.additionalDirectories ?? [],
    permissionMode: 'default',
    sessionDir,
    tasks: {},
  };
  const progress: ToolProgressEvent[] = [];
  const notifications: { task: BackgroundTaskInfo; summary: string }[] = [];
  let waiters: ((n: { task: BackgroundTaskInfo; summary: string }) => void)[] = [];
  const set = (updater: (prev: AppState) => AppState) => {
    state = updater(state);
  };
  const context: ToolUseContext = {
    abortController: new AbortController(),
    options: { tools: [], mainLoopModel: 'test', mcpClients: [], thinkingConfig: { type: 'disabled' } },
    getAppState: () => state,
    setAppState: set,
    setAppStateForTasks: set,
    readFileState: new ReadFileState(),
    messages: [],
    toolDecisions: new Map(),
    onProgress: (event) => progress.push(event),
    notify: (message) => {
      const n = { task: message.task, summary: message.summary };
      notifications.push(n);
      const current = waiters;
      waiters = [];
      for (const w of current) w(n);
    },
  };
  return {
    root,
    sessionDir,
    context,
    state: () => state,
    progress,
    notifications,
    nextNotification: () => new Promise((resolve) => waiters.push(resolve)),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

export type RunToolResult<T> =
  | { ok: true; data: T; progress: unknown[] }
  | { ok: false; error: Error & { data?: unknown }; progress: unknown[] };

/**
 * Runs `tool.call(input, context)` to the end, as the runtime would: each yielded progress value is
 * collected and handed to `onProgress` (which may act on it, e.g. release a command waiting for a
 * marker file). Returns the data or the thrown error.
 */
export async function runTool<T = unknown>(
  tool: AnyTool,
  input: Record<string, unknown>,
  context: ToolUseContext,
  onProgress?: (progress: unknown) => void | Promise<void>,
): Promise<RunToolResult<T>> {
  const parsed = tool.inputSchema.parse(input);
  const progress: unknown[] = [];
  try {
    const generator = tool.call(parsed, context);
    for (;;) {
      const step = await generator.next();
      if (step.done) return { ok: true, data: step.value.data as T, progress };
      progress.push(step.value);
      await onProgress?.(step.value);
    }
  } catch (error) {
    return { ok: false, error: error as Error & { data?: unknown }, progress };
  }
}
