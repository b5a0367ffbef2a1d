/**
 * A turn's abort controller (turn.ts), and which calls own their turn's signal. A one-call turn's
 * controller serves that call alone (docs/runtime.md §1), so a tool may hand its signal to a client
 * that keeps listeners on it (the MCP SDK does) instead of making a signal per call.
 */
import { setMaxListeners } from 'node:events';
import type { ToolUseContext } from '../core/index.js';

/**
 * The turn's abort controller. Its signal is made on first use (most calls never read it: making
 * an AbortSignal costs more than the rest of a turn's set-up), and the turn is told about an abort
 * through `abort()` itself, after the signal's own listeners ran, so no listener is needed.
 */
export class TurnController extends AbortController {
  aborted = false;
  /** False when nobody reads the turn's update stream (`runToolsToCompletion`): progress goes only to `context.onProgress`. */
  streamsUpdates = true;
  private tuned = false;
  private light: RequestSignal | undefined;
  /** The listeners of `requestSignal`, told after the signal's own. */
  lightListeners: (() => void)[] | undefined;
  constructor(
    private readonly maxListeners: number,
    private readonly onAbort: () => void,
  ) {
    super();
  }

  override get signal(): AbortSignal {
    const signal = super.signal;
    if (!this.tuned) {
      this.tuned = true;
      // Every running call and its tool may listen to this signal; Node's default warning threshold is 10.
      setMaxListeners(this.maxListeners, signal);
    }
    return signal;
  }

  /** The request signal of this turn (`RequestSignal`; one per turn, made on first use). */
  get requestSignal(): AbortSignal {
    this.light ??= new RequestSignal(this);
    return this.light as unknown as AbortSignal;
  }

  override abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    super.abort(reason);
    const listeners = this.lightListeners;
    this.lightListeners = undefined;
    if (listeners)
      for (const listener of listeners) {
        try {
          listener();
        } catch {
          // A listener that throws stops neither the others nor the turn's abort.
        }
      }
    this.onAbort();
  }
}

/**
 * The abort signal of a one-call turn's call, as a request client reads it, without making an
 * AbortSignal (making one costs more than the rest of the turn's set-up, docs/mcp-client.md §8.4):
 * `aborted`, `reason`, `throwIfAborted()` and `abort` listeners (told once, with no event, when
 * the turn aborts). That is all the MCP SDK's `Protocol.request` reads of a request's signal (the
 * SDK version is pinned in package.json; src/mcp/client/manager.test.ts cancels a call through it).
 * Give it only to such a client: it is not an EventTarget (no `onabort`, `dispatchEvent`, or
 * `AbortSignal.any`).
 */
class RequestSignal {
  constructor(private readonly controller: TurnController) {}

  get aborted(): boolean {
    return this.controller.aborted;
  }

  get reason(): unknown {
    return this.controller.aborted ? this.controller.signal.reason : undefined;
  }

  throwIfAborted(): void {
    if (this.controller.aborted) throw this.controller.signal.reason;
  }

  addEventListener(type: string, listener: () => void): void {
    if (type !== 'abort' || this.controller.aborted) return;
    (this.controller.lightListeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    const listeners = this.controller.lightListeners;
    const at = type === 'abort' && listeners ? listeners.indexOf(listener) : -1;
    if (at >= 0) listeners?.splice(at, 1);
  }
}

/**
 * The signal a call that owns its turn's signal (`callOwnsAbortSignal`) hands to a request client
 * that leaves its listener there: the turn's `RequestSignal` (no AbortSignal made), or the
 * controller's own signal when the controller is not a turn's.
 */
export function requestSignalOf(context: ToolUseContext): AbortSignal {
  const controller = context.abortController;
  return controller instanceof TurnController ? controller.requestSignal : controller.signal;
}

/** Controllers of single-call turns, with the call they serve (see `callOwnsAbortSignal`). */
const singleCallControllers = new WeakMap<AbortController, string>();

/** Records that `controller` serves the one call `toolUseId` (a one-call turn). */
export function dedicateController(controller: AbortController, toolUseId: string): void {
  singleCallControllers.set(controller, toolUseId);
}

/**
 * True when `context.abortController` serves this call alone (the turn of a one-call
 * `runToolsToCompletion`, and not a nested call): a tool may then hand its signal to a client that
 * leaves a listener on it, instead of making a signal of its own for the call.
 */
export function callOwnsAbortSignal(context: ToolUseContext): boolean {
  return (
    context.toolUseId !== undefined &&
    singleCallControllers.get(context.abortController) === context.toolUseId
  );
}

/**
 * False when nobody would see a progress event of this call: its turn streams no updates and the
 * context has no `onProgress` sink. A tool may then skip asking its backend for progress (an MCP
 * call sends no progress token). True for any context the runtime did not make (fail open: the
 * progress plumbing stays).
 */
export function callProgressObserved(context: ToolUseContext): boolean {
  const controller = context.abortController;
  return (
    !(controller instanceof TurnController) || controller.streamsUpdates || context.onProgress !== undefined
  );
}

/**
 * One listener on a long-lived signal (the session's) that aborts every turn joined to it, so a
 * turn of the session adds and removes no listener of its own (docs/mcp-client.md §8.3).
 */
export class AbortFanout {
  private readonly members = new Set<TurnController>();
  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener('abort', () => {
      const members = [...this.members];
      this.members.clear();
      for (const controller of members) controller.abort(signal.reason);
    });
  }

  /** Aborts `controller` with the signal; true (and nothing joined) when the signal has aborted already. */
  join(controller: TurnController): boolean {
    if (this.signal.aborted) {
      controller.abort(this.signal.reason);
      return true;
    }
    this.members.add(controller);
    return false;
  }

  leave(controller: TurnController): void {
    this.members.delete(controller);
  }
}
