/**
 * `Monitor`: watches a shell command's stdout or a WebSocket in the background and hands each new
 * line to the model as an event (the Claude Code tools reference; Gantry's behaviour is written up
 * in docs/monitor.md). A conditional tool behind the `MONITOR` feature flag
 * (`GANTRY_FEATURE_MONITOR=1`): the registry imports this module only when the flag is on, and
 * fills its ports (ports.ts) with the Bash spawn path and the WebFetch host rules.
 *
 * Sequence: validate (exactly one source; a `ws` URL must be ws/wss without credentials, and its
 * host must not be private, loopback, link-local or a metadata service unless allowed) → describe
 * for the permission engine (a `command` exactly as Bash would be, a `ws` as a network effect that
 * asks) → start the watch as a background task (start-monitor.ts) → return
 * `{taskId, timeoutMs, persistent}` at once.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeWorldOf } from '../../core/call-describer.js';
import { AbortError, buildTool, type ToolUseContext } from '../../core/index.js';
import type { BatchLimits } from './event-batcher.js';
import { invalidWsUrlMessage, MonitorInput, monitorTimeoutMs } from './monitor-input.js';
import type { MonitorPorts } from './ports.js';
import { type MonitorOutput, startMonitor } from './start-monitor.js';
import { refusedHostMessage } from './ws-policy.js';

export type { MonitorOutput, MonitorPorts };

const description = readFileSync(
  fileURLToPath(new URL('./monitor.prompt.md', import.meta.url)),
  'utf8',
).trimEnd();

export interface MonitorToolOptions {
  ports: MonitorPorts;
  /** Batching bounds (default: event-batcher.ts). */
  batchLimits?: BatchLimits;
}

/** Builds a Monitor tool over `options.ports`. */
export function createMonitorTool(options: MonitorToolOptions) {
  const { ports } = options;
  return buildTool({
    name: 'Monitor',
    // Claude Code lists Monitor by name only behind tool search (docs/mcp-client.md "Deferred tools").
    shouldDefer: true,
    description,
    inputSchema: MonitorInput,
    maxResultSizeChars: 10_000,
    userFacingName: () => 'Monitor',
    toAutoClassifierInput: ports.describer.toAutoClassifierInput,

    async validateInput(input: MonitorInput) {
      if (input.description.trim() === '')
        return { ok: false, field: 'description', message: 'description is empty: say what is watched.' };
      if (input.command !== undefined && input.command.trim() === '')
        return { ok: false, field: 'command', message: 'command is empty.' };
      if (input.ws) {
        const invalid = invalidWsUrlMessage(input.ws.url);
        if (invalid) return { ok: false, field: 'ws.url', message: invalid };
        const refused = ports.network.refusal(new URL(input.ws.url));
        if (refused) return { ok: false, field: 'ws.url', message: refusedHostMessage(refused) };
      }
      return { ok: true };
    },

    async describeCall(input: MonitorInput, context: ToolUseContext) {
      const world = describeWorldOf(context);
      const description = await ports.describer.describe(input, world);
      const decide = ports.shell.sandbox?.decide;
      if (input.command === undefined || !decide) return description;
      const decision = await decide({ command: input.command, cwd: world.cwd }).catch(() => ({
        mode: 'unknown',
      }));
      return { ...description, sandboxed: decision.mode === 'sandboxed' };
    },

    async *call(input: MonitorInput, context: ToolUseContext) {
      if (context.abortController.signal.aborted)
        throw new AbortError('The watch was not started: the turn was aborted.');
      const source =
        input.command !== undefined
          ? { command: input.command, cwd: ports.shell.startCwd(context.getAppState()) }
          : { ws: input.ws! };
      const data = await startMonitor({
        description: input.description,
        source,
        timeoutMs: monitorTimeoutMs(input),
        context,
        ports,
        ...(options.batchLimits ? { batchLimits: options.batchLimits } : {}),
      });
      return { data };
    },

    mapToolResultToContent: (output: MonitorOutput) =>
      [
        `Monitor started as task ${output.taskId} (${output.persistent ? 'persistent: no deadline' : `stops after ${output.timeoutMs} ms`}).`,
        `New output arrives as <monitor-event task-id="${output.taskId}"> messages in later turns; do not poll or sleep waiting for it.`,
        `Stop it with TaskStop when you no longer need it: {"task_id":"${output.taskId}"}.`,
      ].join('\n'),
  });
}
