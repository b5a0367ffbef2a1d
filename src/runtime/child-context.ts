/**
 * `createChildContext`: the context a sub-agent's turns run in, derived from the context of the
 * call that starts it (the Agent tool's). What the child gets:
 *
 * - its own tools (`options.tools`);
 * - a copy of the parent's read-file state (reads the child does later are its own);
 * - its own abort controller, aborted when the parent's signal aborts (or `options.signal`), never
 *   the other way round; `dispose()` detaches it from the parent (and so does its own abort), so a
 *   long session does not collect listeners;
 * - an empty conversation (`messages`; the sub-agent's loop passes its own per turn);
 * - `agentId`, which the runtime puts on every progress event and update of the child's calls;
 * - a scoped app state: the child reads the parent's state as it was at creation, with its own
 *   `cwd` and `permissionMode`, and its `setAppState` changes only its own copy. The root-owned
 *   slots (`tasks`, `todos`) are always read from the root session, and `setAppStateForTasks`
 *   writes the root session's state;
 * - the same session services (background tasks, model client) and the parent's running-call
 *   handle, so the admission gate knows the child's calls run on behalf of that call.
 *
 * Permission mode: a child's permissions only narrow its parent's. A requested mode wider than the
 * parent's (or not comparable with it) is replaced by the parent's mode; see `narrowPermissionMode`.
 */
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import type { AnyTool, AppState, PermissionMode, ToolUseContext } from '../core/index.js';

export interface ChildContextOptions {
  /** Id of the sub-agent (on every progress event and runtime update of its calls). */
  agentId: string;
  /** The tools the sub-agent may call. */
  tools: readonly AnyTool[];
  /** The sub-agent's permission mode (narrowed to the parent's; default: the parent's). */
  permissionMode?: PermissionMode;
  /** The sub-agent's working directory (e.g. a worktree); it also becomes its project root. Absolute. */
  cwd?: string;
  /** Another signal that aborts the child (a background agent's own stop), besides the parent's. */
  signal?: AbortSignal;
}

/** A child context; `dispose()` when the sub-agent is done (idempotent). */
export interface ChildToolUseContext extends ToolUseContext {
  dispose(): void;
}

/**
 * How much each mode lets through without asking. `plan` and `dontAsk` both allow less than
 * `default`, but neither is narrower than the other (plan refuses writes a rule would allow;
 * dontAsk refuses what would ask), so they are incomparable.
 */
const MODE_RANK: Readonly<Record<PermissionMode, number>> = {
  plan: 0,
  dontAsk: 0,
  default: 1,
  acceptEdits: 2,
  auto: 3,
  bypassPermissions: 4,
};

/** The child's mode: `requested` when it is the parent's or strictly narrower, else the parent's. */
export function narrowPermissionMode(
  parent: PermissionMode,
  requested: PermissionMode | undefined,
): PermissionMode {
  if (requested === undefined || requested === parent) return parent;
  const p = MODE_RANK[parent];
  const r = MODE_RANK[requested];
  if (p === undefined || r === undefined) return parent;
  return r < p ? requested : parent;
}

/** App-state slots that belong to the whole session: a child always reads the root's. */
const ROOT_OWNED = ['tasks', 'todos'] as const;

/** Builds the child's context. See the module comment for what is shared, copied and scoped. */
export function createChildContext(
  parent: ToolUseContext,
  options: ChildContextOptions,
): ChildToolUseContext {
  const controller = new AbortController();
  // The child's turns and its own sub-agents listen to this signal; each detaches when done.
  setMaxListeners(0, controller.signal);
  const detachers: (() => void)[] = [];
  const detach = (): void => {
    for (const d of detachers.splice(0)) d();
  };
  for (const signal of [parent.abortController.signal, options.signal]) {
    if (!signal) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = (): void => {
      controller.abort(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    detachers.push(() => signal.removeEventListener('abort', onAbort));
  }
  if (controller.signal.aborted) detach();
  else controller.signal.addEventListener('abort', detach, { once: true });

  const root = parent.getAppState;
  const initial = parent.getAppState();
  const cwd = options.cwd !== undefined ? path.resolve(options.cwd) : initial.cwd;
  let own: AppState = {
    ...initial,
    cwd,
    ...(options.cwd !== undefined ? { projectRoot: cwd } : {}),
    permissionMode: narrowPermissionMode(initial.permissionMode, options.permissionMode),
  };
  /** The child's view: its own state with the root-owned slots as the root has them now. */
  const view = (): AppState => {
    const current = root();
    let stale = false;
    for (const key of ROOT_OWNED) if (own[key] !== current[key]) stale = true;
    if (stale) {
      const next: AppState = { ...own, tasks: current.tasks };
      if (current.todos !== undefined) next.todos = current.todos;
      else delete next.todos;
      own = next;
    }
    return own;
  };

  const { dispose: _parentDispose, ...base } = parent as ChildToolUseContext;
  const child: ChildToolUseContext = {
    ...base,
    abortController: controller,
    options: { ...parent.options, tools: options.tools },
    getAppState: view,
    setAppState: (updater) => {
      own = updater(view());
    },
    setAppStateForTasks: parent.setAppStateForTasks,
    readFileState: parent.readFileState.clone(),
    messages: [],
    agentId: options.agentId,
    dispose: detach,
  };
  delete child.toolUseId;
  return child;
}
