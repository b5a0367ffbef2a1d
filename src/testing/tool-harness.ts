/**
 * The one place tests build a ToolUseContext and run a tool (only tests and benches import it).
 *
 * - `makeToolContext(options)` is the context `createToolRuntime` builds (no hand-built copy that
 *   can drift from the real one).
 * - `runTool(tool, input, context)` runs one call through the real runtime pipeline (schema,
 *   validateInput, permission step with the allow-all decider unless another is given, call,
 *   result mapping, result budget) in `context`, and returns what the host would get: the
 *   structured `data`, the content the model sees, the progress, the call record.
 * - `makeTestSession()` is a temp project with its session directory and a context that records
 *   progress events and task notifications (the Bash and task tools' tests).
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  AnyTool,
  AppState,
  BackgroundTaskInfo,
  PermissionDecider,
  PermissionMode,
  ReadFileState,
  ToolProgressEvent,
  ToolResultContent,
  ToolUseContext,
} from '../core/index.js';
import { contentText } from '../core/index.js';
import {
  allowAllDecider,
  type CallRecord,
  type CanUseTool,
  createSessionServices,
  createToolRuntime,
  type SessionServicesHandle,
} from '../runtime/index.js';

export interface ToolContextOptions {
  cwd: string;
  projectRoot?: string;
  additionalDirectories?: string[];
  /** Default `<cwd>/.session`. */
  sessionDir?: string;
  permissionMode?: PermissionMode;
  compat?: Record<string, unknown>;
  readFileState?: ReadFileState;
  tools?: readonly AnyTool[];
  services?: SessionServicesHandle;
  onProgress?: (event: ToolProgressEvent) => void;
  notify?: ToolUseContext['notify'];
}

/** The session context `createToolRuntime` builds for these options (session id `test-session`). */
export function makeToolContext(options: ToolContextOptions): ToolUseContext {
  return createToolRuntime({
    tools: options.tools ?? [],
    cwd: options.cwd,
    sessionId: 'test-session',
    sessionDir: options.sessionDir ?? path.join(options.cwd, '.session'),
    env: {},
    ...(options.projectRoot ? { projectRoot: options.projectRoot } : {}),
    ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
    ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    ...(options.compat ? { compat: options.compat } : {}),
    ...(options.readFileState ? { readFileState: options.readFileState } : {}),
    ...(options.services ? { services: options.services } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.notify ? { notify: options.notify } : {}),
  }).context;
}

/** What one call through the runtime gave. */
export interface ToolRun<O = unknown> {
  /** True when the call succeeded (`status` ok). */
  ok: boolean;
  /** The structured output (`undefined` unless `ok`). */
  data: O;
  /** What the model sees (after the per-call cap). */
  content: ToolResultContent;
  /** The error text without its `<tool_use_error>` wrapper (`''` when `ok`). */
  error: string;
  /** Progress values the call yielded, in order. */
  progress: unknown[];
  record: CallRecord;
}

export interface RunToolOptions {
  /** Called with each progress value as it arrives (awaited before the next update is read). */
  onProgress?: (progress: unknown) => void | Promise<void>;
  /** Default: allow everything the tool itself does not deny. */
  decide?: PermissionDecider;
  canUseTool?: CanUseTool;
  /** The tool_use id (default: a fresh `toolu_test_<n>`). */
  toolUseId?: string;
}

let sequence = 0;

function unwrap(text: string): string {
  const m = /^<tool_use_error>([\s\S]*)<\/tool_use_error>$/.exec(text);
  return m ? (m[1] as string) : text;
}

/** Runs one call of `tool` on raw `input` in `context`, through the real runtime. Never throws for a failed call. */
export async function runTool<O = unknown>(
  tool: AnyTool,
  input: unknown,
  context: ToolUseContext,
  options: RunToolOptions = {},
): Promise<ToolRun<O>> {
  const runtime = createToolRuntime({
    tools: [tool],
    cwd: context.getAppState().cwd,
    decide: options.decide ?? allowAllDecider,
    ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
    env: {},
  });
  const id = options.toolUseId ?? `toolu_test_${++sequence}`;
  const progress: unknown[] = [];
  const updates = runtime.runTools([{ type: 'tool_use', id, name: tool.name, input }], {
    context: { ...context, options: { ...context.options, tools: [tool] } },
  });
  let step = await updates.next();
  while (!step.done) {
    const update = step.value;
    if (update.type === 'progress') {
      progress.push(update.event.data);
      await options.onProgress?.(update.event.data);
    }
    step = await updates.next();
  }
  const block = step.value.results[0];
  const record = step.value.calls[0];
  if (!block || !record) throw new Error('runTool: the runtime returned no result');
  const ok = record.status === 'ok';
  return {
    ok,
    data: record.data as O,
    content: block.content,
    error: ok ? '' : unwrap(contentText(block.content)),
    progress,
    record,
  };
}

/** `runTool`, failing the test when the call fails (the error names the call and its text). */
export async function runToolOk<O = unknown>(
  tool: AnyTool,
  input: unknown,
  context: ToolUseContext,
  options?: RunToolOptions,
): Promise<ToolRun<O>> {
  const run = await runTool<O>(tool, input, context, options);
  if (!run.ok) throw new Error(run.error);
  return run;
}

/** The error text a call fails with (fails the test when it succeeds). */
export async function runToolError(
  tool: AnyTool,
  input: unknown,
  context: ToolUseContext,
  options?: RunToolOptions,
): Promise<string> {
  const run = await runTool(tool, input, context, options);
  if (run.ok) throw new Error(`expected ${tool.name} to fail on ${JSON.stringify(input).slice(0, 200)}`);
  return run.error;
}

/** A fresh temp directory (its real path, symlinks resolved); `cleanup()` removes it. */
export async function makeTempDir(
  prefix = 'gantry-test-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface TestSession {
  /** Project root (physical path). */
  root: string;
  sessionDir: string;
  context: ToolUseContext;
  services: SessionServicesHandle;
  state(): AppState;
  progress: ToolProgressEvent[];
  notifications: { task: BackgroundTaskInfo; summary: string }[];
  /** Resolves with the next task notification. */
  nextNotification(): Promise<{ task: BackgroundTaskInfo; summary: string }>;
  /** Disposes the session's services (stops background tasks) and removes the temp directories. */
  cleanup(): Promise<void>;
}

/** A temp project (`<tmp>/gantry-session-…/project`) with its session dir, and a context over it. */
export async function makeTestSession(
  options: { additionalDirectories?: string[]; services?: SessionServicesHandle } = {},
): Promise<TestSession> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'gantry-session-')));
  const root = path.join(base, 'project');
  const sessionDir = path.join(base, 'session');
  await mkdir(root, { recursive: true });
  const progress: ToolProgressEvent[] = [];
  const notifications: { task: BackgroundTaskInfo; summary: string }[] = [];
  let waiters: ((n: { task: BackgroundTaskInfo; summary: string }) => void)[] = [];
  const services = options.services ?? createSessionServices();
  const context = makeToolContext({
    cwd: root,
    sessionDir,
    services,
    ...(options.additionalDirectories ? { additionalDirectories: options.additionalDirectories } : {}),
    onProgress: (event) => progress.push(event),
    notify: (message) => {
      const n = { task: message.task, summary: message.summary };
      notifications.push(n);
      const current = waiters;
      waiters = [];
      for (const w of current) w(n);
    },
  });
  return {
    root,
    sessionDir,
    context,
    services,
    state: () => context.getAppState(),
    progress,
    notifications,
    nextNotification: () => new Promise((resolve) => waiters.push(resolve)),
    cleanup: async () => {
      await services.dispose();
      await rm(base, { recursive: true, force: true });
    },
  };
}
