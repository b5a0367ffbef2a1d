/**
 * Session services: one object per session that owns what outlives a single call and must be shut
 * down with the session: the background task registry, the OS sandbox manager, MCP client
 * connections and (later) language servers, plus the optional model client. Tools reach the
 * parts they may use through `context.services` (the `SessionServices` interface in core); the
 * host keeps the full handle and calls `dispose()` when the session ends.
 *
 * Disposal: resources are disposed one at a time in the reverse order of registration (the task
 * registry is registered after the sandbox, so background commands are stopped before the sandbox
 * they run in is torn down). A resource that fails to dispose does not stop the others: every
 * failure is collected and returned. `dispose()` is idempotent (a second call returns the first
 * call's promise).
 */
import path from 'node:path';
import type {
  ModelClient,
  SessionInbox,
  SessionResource,
  SessionServices,
  SessionWorkingDirectory,
  SubagentRunner,
  ToolHookRunner,
  UntilNextPromptControls,
} from '../core/index.js';
import type { SandboxManager } from '../sandbox/index.js';
import { BackgroundTaskManager } from './background-tasks.js';

/** Anything a session can shut down (core's interface, re-exported for hosts). */
export type { SessionResource };

/** A resource that failed to dispose, by the name it was registered under. */
export interface DisposeFailure {
  name: string;
  error: unknown;
}

export interface SessionServicesOptions {
  /** The model client the loop, the Agent tool and WebFetch use (optional). */
  modelClient?: ModelClient;
  /** The OS sandbox manager of this session's Bash commands; disposed with the session. */
  sandbox?: SandboxManager;
  /** The task registry to use (default: a new one). */
  tasks?: BackgroundTaskManager;
  /**
   * False when `tasks` belongs to another session's services (a sub-agent shares its parent's
   * registry): it is then not disposed with these services. Default true.
   */
  ownsTasks?: boolean;
  /** The hooks of events tools fire (TaskCreated, TaskCompleted); the loop gives them. */
  hooks?: ToolHookRunner;
  /** Temporary rules and model override until the next prompt (the loop gives them). */
  untilNextPrompt?: UntilNextPromptControls;
  /** Runs a sub-agent (the agents room gives it). */
  runSubagent?: SubagentRunner;
  /** The session's state directory beside its transcript. */
  sessionStateDir?: string;
  /** Where tools deliver text to the model later (the loop gives it). */
  inbox?: SessionInbox;
  /** Told after the session moved to another working directory (the loop moves its hooks' cwd). */
  onWorkingDirectoryChange?: (dir: string) => void;
}

/** The host's handle on a session's services. */
export interface SessionServicesHandle extends SessionServices {
  readonly tasks: BackgroundTaskManager;
  readonly sandbox: SandboxManager | undefined;
  readonly modelClient: ModelClient | undefined;
  /**
   * Registers a resource to dispose with the session under a unique `name` (e.g. `mcp:github`,
   * `lsp:typescript`). Throws when the name is taken or the session is already disposed.
   */
  register(name: string, resource: SessionResource): void;
  /** The resource registered under `name`. */
  get(name: string): SessionResource | undefined;
  /** Names of the registered resources, in registration order. */
  names(): string[];
  /** True once `dispose()` was called. */
  readonly disposed: boolean;
  /**
   * Disposes every resource in reverse order of registration; resolves with the failures (empty
   * when all went well). Never rejects. Idempotent.
   */
  dispose(): Promise<DisposeFailure[]>;
}

/** Name under which the task registry is registered. */
export const TASKS_RESOURCE = 'background-tasks';
/** Name under which the sandbox manager is registered. */
export const SANDBOX_RESOURCE = 'sandbox';

/**
 * The runtime's {@link SessionWorkingDirectory}: `cwd` (and the working directories) in the calling
 * context's app state, the read-file state emptied, then `onChange` (the loop's part).
 */
export function workingDirectoryService(onChange?: (dir: string) => void): SessionWorkingDirectory {
  return {
    change(context, dir, options = {}) {
      const cwd = path.resolve(dir);
      context.setAppState((prev) => {
        let dirs = prev.additionalDirectories;
        if (options.removeDirectory) {
          const drop = path.resolve(options.removeDirectory);
          dirs = dirs.filter((d) => d !== drop);
        }
        if (options.addDirectory && !dirs.includes(cwd)) dirs = [...dirs, cwd];
        return { ...prev, cwd, additionalDirectories: dirs };
      });
      context.readFileState.clear();
      onChange?.(cwd);
    },
  };
}

/** Builds a session's services. */
export function createSessionServices(options: SessionServicesOptions = {}): SessionServicesHandle {
  const resources = new Map<string, SessionResource>();
  const tasks = options.tasks ?? new BackgroundTaskManager();
  let disposing: Promise<DisposeFailure[]> | undefined;

  const register = (name: string, resource: SessionResource): void => {
    if (disposing) throw new Error(`the session is disposed; ${name} was not registered`);
    if (resources.has(name)) throw new Error(`a session resource named ${name} is already registered`);
    resources.set(name, resource);
  };
  if (options.sandbox) register(SANDBOX_RESOURCE, options.sandbox);
  if (options.ownsTasks !== false) register(TASKS_RESOURCE, tasks);

  const disposeAll = async (): Promise<DisposeFailure[]> => {
    const failures: DisposeFailure[] = [];
    for (const [name, resource] of [...resources].reverse()) {
      try {
        await resource.dispose();
      } catch (error) {
        failures.push({ name, error });
      }
    }
    return failures;
  };

  return {
    tasks,
    sandbox: options.sandbox,
    modelClient: options.modelClient,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(options.untilNextPrompt ? { untilNextPrompt: options.untilNextPrompt } : {}),
    ...(options.runSubagent ? { runSubagent: options.runSubagent } : {}),
    ...(options.sessionStateDir ? { sessionStateDir: options.sessionStateDir } : {}),
    ...(options.inbox ? { inbox: options.inbox } : {}),
    workingDirectory: workingDirectoryService(options.onWorkingDirectoryChange),
    register,
    get: (name) => resources.get(name),
    resources: { register, get: (name) => resources.get(name) },
    names: () => [...resources.keys()],
    get disposed() {
      return disposing !== undefined;
    },
    dispose() {
      disposing ??= disposeAll();
      return disposing;
    },
  };
}
