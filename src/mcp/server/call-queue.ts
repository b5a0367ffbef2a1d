/**
 * Concurrent MCP `tools/call` requests on one tool runtime (issue 7 `gantry mcp`).
 *
 * A runtime runs one turn at a time (`runToolsToCompletion` throws "a turn is already running"),
 * but an MCP client may send several `tools/call` requests without waiting (parallel read-only
 * calls are common). Calls are therefore grouped: a call that arrives while no turn runs starts a
 * turn on the next turn of the event loop (with every call that arrived in the same read); calls
 * that arrive while a turn runs wait and together form the next turn, in arrival order. Inside a turn the runtime's own scheduling applies (seed 000 §6: consecutive
 * concurrency-safe calls run in parallel, others one at a time), so session state — cwd, read-file
 * state, background tasks — stays in one place.
 *
 * Cancellation: a request's signal aborts its turn only when every call of that turn was cancelled
 * (a lone call — the common case — is aborted at once; the SDK sends no response for a cancelled
 * request anyway). A queued call cancelled before its turn starts is dropped.
 *
 * Consequence to know: a long call (a 2-minute Bash, a permission prompt waiting for the user)
 * delays calls that arrive after it until its turn ends, as within one model turn.
 */
import type { ToolResultBlock, ToolUseBlock } from '../../core/index.js';
import type { ToolRuntime } from '../../runtime/index.js';

interface QueuedCall {
  toolUse: ToolUseBlock;
  signal: AbortSignal | undefined;
  resolve(block: ToolResultBlock | undefined): void;
  reject(error: unknown): void;
}

export interface CallQueue {
  /**
   * Runs one call in the next possible turn. Resolves with its `tool_result` block (undefined when
   * the call was cancelled before it started or the runtime returned no block for it); rejects when
   * the runtime throws for the whole turn (FatalError).
   */
  submit(toolUse: ToolUseBlock, signal?: AbortSignal): Promise<ToolResultBlock | undefined>;
}

/** Grouping queue in front of `runtime` (see module doc). */
export function createCallQueue(runtime: Pick<ToolRuntime, 'runToolsToCompletion'>): CallQueue {
  let queue: QueuedCall[] = [];
  let draining = false;

  const runTurn = async (calls: QueuedCall[]): Promise<void> => {
    // A lone call (the common case) runs on its own request's signal; a group gets a signal that
    // aborts once every call of the group was cancelled.
    let signal = calls.length === 1 ? calls[0]?.signal : undefined;
    let onAbort: (() => void) | undefined;
    if (calls.length > 1) {
      const controller = new AbortController();
      signal = controller.signal;
      let live = calls.length;
      onAbort = () => {
        live--;
        if (live === 0) controller.abort();
      };
      for (const c of calls) c.signal?.addEventListener('abort', onAbort, { once: true });
    }
    try {
      const turn = await runtime.runToolsToCompletion(
        calls.map((c) => c.toolUse),
        signal ? { signal } : {},
      );
      const byId = new Map(turn.results.map((b) => [b.tool_use_id, b]));
      for (const c of calls) c.resolve(byId.get(c.toolUse.id));
    } catch (error) {
      for (const c of calls) c.reject(error);
    } finally {
      if (onAbort) for (const c of calls) c.signal?.removeEventListener('abort', onAbort);
    }
  };

  const drain = async (): Promise<void> => {
    try {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        const started: QueuedCall[] = [];
        for (const c of batch) {
          if (c.signal?.aborted) c.resolve(undefined);
          else started.push(c);
        }
        if (started.length > 0) await runTurn(started);
      }
    } finally {
      draining = false;
    }
  };

  return {
    submit(toolUse, signal) {
      return new Promise<ToolResultBlock | undefined>((resolve, reject) => {
        queue.push({ toolUse, signal, resolve, reject });
        if (!draining) {
          // Start on the next turn of the event loop, so requests that came in the same read
          // (a client's parallel calls) start together in one turn.
          draining = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
