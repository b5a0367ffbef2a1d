/**
 * What the Monitor tool borrows from other tools, as ports the registry fills in
 * (src/tools/monitor-ports.ts): tool folders do not import each other, and Monitor must not grow
 * a second spawn path or a second set of host rules.
 *
 * - `shell`: the Bash tool's spawn path (spawn spec, the session's sandbox, its own process group,
 *   stdout as a pipe), its start-directory rule and its shell analysis (the describer).
 * - `network`: the WebFetch host rules (the pre-connect refusal of IP literals and single-label
 *   hosts, the connect-time lookup guard) with the user's private-host allowance applied.
 */
import type { Readable } from 'node:stream';
import type { ToolDescriberEntry } from '../../core/call-describer.js';
import type { AppState } from '../../core/context.js';
import type { SandboxCallInfo, SpawnSpec } from '../../core/spawn.js';

/** A started command (the Bash tool's `RunningProcess`, the parts Monitor uses). */
export interface MonitorProcess {
  pid: number;
  /** The command's stdout (stderr goes to the output file). */
  stdout?: Readable;
  exited: Promise<{ code: number | null }>;
  /** Set once `terminate` was called. */
  readonly stopReason: string | undefined;
  /** SIGTERM to the group, SIGKILL after the grace period. Idempotent. */
  terminate(reason: 'stopped'): Promise<unknown>;
  /** After the leader exited: stops what it left running in its group. */
  stopLeftovers(): Promise<unknown>;
}

export interface MonitorShell {
  /** The spawn spec of `command` (a non-interactive bash; the cwd is never written back). */
  spec(options: { command: string; cwd: string }): SpawnSpec;
  /** Starts `spec` in its own process group; stdout is a pipe, stderr goes to `outputFile`. */
  start(spec: SpawnSpec, outputFile: string): Promise<MonitorProcess>;
  /** The session's OS sandbox, when it has one. */
  sandbox?: {
    wrap(
      spec: SpawnSpec,
      info: SandboxCallInfo,
    ): Promise<{ spec: SpawnSpec; cleanup: () => void | Promise<void> }>;
    decide?(input: { command: string; cwd?: string }): Promise<{ mode: string }>;
  };
  /** Where the command starts (the session cwd while it is inside the allowed directories). */
  startCwd(state: Pick<AppState, 'projectRoot' | 'additionalDirectories' | 'cwd'>): string;
}

/** A refused host: the address it is or resolved to (absent for a single-label name). */
export interface RefusedHost {
  host: string;
  address?: string;
}

export interface MonitorNetwork {
  /** The refusal of a URL's host before connecting (IP literal or single label), if any. */
  refusal(url: URL): RefusedHost | undefined;
  /** The connect-time `lookup` (`net.connect` shape) that refuses names resolving to such hosts. */
  lookup: (...args: never[]) => void;
  /** The refused host behind a connection error raised by `lookup`, if that was the cause. */
  blocked(error: unknown): RefusedHost | undefined;
}

export interface MonitorPorts {
  shell: MonitorShell;
  network: MonitorNetwork;
  /** The Monitor describer (`command` as a Bash call, `ws` as a network effect). */
  describer: ToolDescriberEntry;
}
