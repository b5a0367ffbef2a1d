/**
 * The shapes fleet mode stores in the engine (docs/fleet.md): a session's input (the workflow's
 * argument), its output, the pending asks it publishes, and the approval messages it receives.
 * All JSON.
 */
import type { PermissionMode } from '../core/permission-types.js';

/** The workflow that runs one session. */
export const SESSION_WORKFLOW = 'gantry.fleet.session';
/** The queue sessions wait in. */
export const SESSION_QUEUE = 'gantry-sessions';
/** The event holding a session's pending asks (`PendingAsk[]`). */
export const ASKS_EVENT = 'asks';
/** The topic of the approval for call `<id>`. */
export const approvalTopic = (toolUseId: string): string => `approval:${toolUseId}`;

export interface SessionInput {
  prompt: string;
  /** Model name or alias; default the provider's. */
  model?: string;
  /** `anthropic` (default) or `openai`. */
  provider?: string;
  /** A working directory every worker sees (a shared file system). Give this or `repo`. */
  cwd?: string;
  /**
   * A git repository every worker can clone (a path or URL): the session works in a fresh
   * checkout of `branch` on the worker that runs it, and its effects are committed and pushed to
   * that branch after each call with effects (docs/fleet.md, "Placement").
   */
  repo?: string;
  /** Default `gantry/fleet/<session id>` (created from the repository's default branch). */
  branch?: string;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  /** `--settings` files, read on the worker. */
  settingsFiles?: string[];
  maxTurns?: number;
  /** How long an ask waits for `gantry fleet approve|deny` before it counts as denied (ms). */
  approvalTimeoutMs?: number;
  /** Free-form label shown by `status`. */
  label?: string;
}

export interface SessionOutput {
  /** The result's subtype (`success`, `error_max_turns`, …). */
  subtype: string;
  isError: boolean;
  /** The final text. */
  result: string;
  numTurns: number;
  /** The session's transcript on the worker that finished it (`gantry replay` reads it). */
  transcriptPath?: string;
  /** The worker that finished the session. */
  workerId: string;
  /** Tool calls reported to the model as interrupted (cut off by a worker that stopped). */
  interruptedCalls: string[];
}

export interface PendingAsk {
  toolUseId: string;
  toolName: string;
  input: Record<string, unknown>;
  reason: string;
  /** Epoch ms. */
  askedAt: number;
  /** Epoch ms after which the ask counts as denied. */
  expiresAt: number;
}

export interface ApprovalMessage {
  allow: boolean;
  /** Shown to the model with a deny. */
  message?: string;
  /** Who answered (`cli`, `http`). */
  by?: string;
}
