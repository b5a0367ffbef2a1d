/**
 * `--input-format stream-json`: a session fed by a host over stdin (the Claude Agent SDK, or any
 * program speaking its protocol; docs/cli-print.md "Control protocol").
 *
 * stdin lines:
 * - `user` messages: queued as prompts (one turn and one `result` each); one that arrives while a
 *   turn runs is delivered the loop's way (inside the turn when it goes on, else the next prompt);
 *   echoed back first with `--replay-user-messages`;
 * - `control_request`: answered by `host-requests.ts` (initialize, interrupt, set_permission_mode,
 *   set_model, mcp_status, …);
 * - `control_response`: the answer to a `can_use_tool` / `hook_callback` request this side sent;
 * - `keep_alive`, `control_cancel_request`, and types Gantry does not know: skipped (unknown ones
 *   with a stderr note); a line that is not JSON or is too long: a stderr note, the stream goes on.
 *
 * While the session waits with nothing to do (no prompt yet, or a result out and nothing queued),
 * `{"type":"keep_alive"}` lines go out every few seconds (keep-alive.ts).
 *
 * The session starts at the first `user` message, so the `initialize` request that comes before it
 * (system prompt, hooks, jsonSchema) shapes it. At stdin's end: requests to the host fail (their asks become
 * denies), queued prompts still run, then the process ends — 0, or 1 when the last result was an
 * error. With no prompt at all, nothing is printed and the exit code is 0. A session that ends by
 * itself (a hook's `continue: false`, a closed stdout) stops reading stdin and the process ends.
 */
import type { Readable } from 'node:stream';
import { createInputQueue } from '../../loop/input-queue.js';
import type { InputQueue, Query, QueryOptions, UserInputMessage } from '../../loop/types.js';
import type { AgentSetup } from '../session/agent-setup.js';
import type { SessionTarget } from '../session/session-target.js';
import type { PrintArgs } from './args.js';
import { ControlChannel } from './control-channel.js';
import { type ElicitationRoute, hostElicitation } from './elicitation.js';
import { HostRequests, type HostState } from './host-requests.js';
import { KeepAlive, keepAliveIntervalMs } from './keep-alive.js';
import type { LineWriter } from './line-writer.js';
import { readNdjson } from './ndjson.js';
import type { OutputSink } from './output.js';
import type { PendingFeatures } from './pending-features.js';
import { baseQueryOptions, type PrintIo } from './run-print.js';
import { stdioCanUseTool } from './sdk-bridge.js';
import type { StructuredOutput } from './structured-output.js';

export interface HostSessionDeps {
  args: PrintArgs;
  io: PrintIo;
  out: LineWriter;
  err: LineWriter;
  sink: OutputSink;
  setup: AgentSetup;
  target: SessionTarget;
  pending: PendingFeatures;
  start: (options: QueryOptions) => Query;
  /** Where the MCP servers' elicitations go: connected to the host here. */
  elicitation?: ElicitationRoute;
  /** `--json-schema` (else the schema of the host's `initialize.jsonSchema`, if any). */
  structured?: StructuredOutput;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stdin `user` line as a loop input message, or a reason it is not one. */
export function toInputMessage(line: Record<string, unknown>): UserInputMessage | string {
  const message = line.message;
  if (!isObj(message)) return 'a user line needs a "message" object';
  if (message.role !== undefined && message.role !== 'user')
    return `a user line's message.role must be "user"`;
  const content = message.content;
  if (typeof content !== 'string' && !(Array.isArray(content) && content.every(isObj)))
    return 'a user line needs message.content as a string or an array of content blocks';
  return {
    type: 'user',
    message: { role: 'user', content: content as UserInputMessage['message']['content'] },
    parent_tool_use_id: typeof line.parent_tool_use_id === 'string' ? line.parent_tool_use_id : null,
    ...(typeof line.uuid === 'string' ? { uuid: line.uuid } : {}),
    ...(line.isSynthetic === true ? { isSynthetic: true } : {}),
  };
}

/** Runs the host session; resolves with the exit code. */
export async function runHostSession(d: HostSessionDeps): Promise<number> {
  const { args, io, out, err, sink, setup, target, pending } = d;
  const note = (text: string): Promise<void> => err.writeRaw(`gantry: ${text}\n`);
  const channel = new ControlChannel(out);
  d.elicitation?.connect(hostElicitation(channel));
  const queue: InputQueue = createInputQueue();
  const state: HostState = { query: undefined, hostHooks: undefined };
  const requests = new HostRequests({ channel, setup, target, pending, state, note, args });
  // Idle until the first prompt; busy while a turn runs; idle again after a result with nothing queued.
  const keepAlive = new KeepAlive(out, io.keepAliveIntervalMs ?? keepAliveIntervalMs(io.env));
  keepAlive.start();

  let consuming: Promise<void> | undefined;
  /** The session ended by itself (a hook stopped it, the output closed): stdin is no longer read. */
  let sessionOver = false;
  const startSession = (): void => {
    if (consuming) return;
    // The host's in-process MCP servers finish their handshake first (their tools are in turn 1).
    consuming = requests.sdkServersReady().then(() => runSession());
  };
  const runSession = async (): Promise<void> => {
    const init = requests.initializeFacts();
    const base = baseQueryOptions(args, setup, target, pending, queue);
    const options: QueryOptions = {
      ...base,
      ...(state.modelOverride !== undefined ? { model: state.modelOverride } : {}),
      ...(state.modeOverride !== undefined ? { permissionMode: state.modeOverride } : {}),
      ...(init.systemPrompt !== undefined ? { systemPrompt: init.systemPrompt } : {}),
      ...(init.appendSystemPrompt !== undefined
        ? {
            appendSystemPrompt: [base.appendSystemPrompt, init.appendSystemPrompt]
              .filter(Boolean)
              .join('\n\n'),
          }
        : {}),
      ...(state.hostHooks?.matcherCount ? { hooks: state.hostHooks.hooks } : {}),
      ...(args.permissionPromptTool === 'stdio'
        ? { canUseTool: stdioCanUseTool(channel, { bypassAvailable: setup.bypassAvailable }) }
        : {}),
      initExtras: { ...base.initExtras, mcp_servers: requests.mcpServers() },
      ...(io.abortSignal ? { abortSignal: io.abortSignal } : {}),
    };
    const structured = d.structured ?? init.structured;
    const q = d.start(structured ? structured.apply(options) : options);
    structured?.attach(q);
    state.query = q;
    try {
      for await (const raw of q) {
        const event = structured ? structured.observe(raw) : raw;
        keepAlive.setIdle(event.type === 'result' && queue.pending === 0);
        await sink.event(event);
        if (out.closed) {
          q.close();
          break;
        }
      }
    } finally {
      // Nothing can use more input: stop reading so the process ends now, not at the host's EOF.
      sessionOver = true;
      (io.stdin as Readable).destroy();
    }
  };

  const reader = (async () => {
    for await (const item of readNdjson(io.stdin as Readable)) {
      if (item.kind === 'not_json') {
        await note(`stdin line skipped, not JSON (${item.error}): ${item.excerpt}`);
        continue;
      }
      if (item.kind === 'too_long') {
        await note(`stdin line skipped: ${item.bytes} bytes is more than one line may hold`);
        continue;
      }
      const line = item.value;
      if (!isObj(line) || typeof line.type !== 'string') {
        await note('stdin line skipped: not an object with a "type"');
        continue;
      }
      switch (line.type) {
        case 'user': {
          const m = toInputMessage(line);
          if (typeof m === 'string') {
            await note(`stdin line skipped: ${m}`);
            break;
          }
          if (args.replayUserMessages)
            await sink.extra({
              ...line,
              session_id: target.sessionId,
              parent_tool_use_id: m.parent_tool_use_id ?? null,
              uuid: m.uuid ?? crypto.randomUUID(),
              isReplay: true,
            });
          if (queue.closed) break;
          keepAlive.setIdle(false);
          queue.push(m);
          startSession();
          break;
        }
        case 'control_request':
          // initialize is awaited (it shapes the session); the others run alongside the turn.
          if (isObj(line.request) && line.request.subtype === 'initialize') await requests.handle(line);
          else void requests.handle(line);
          break;
        case 'control_response':
          channel.handleResponse(line);
          break;
        case 'keep_alive':
        case 'control_cancel_request':
          break;
        default:
          await note(`stdin line of type "${line.type}" ignored`);
      }
    }
  })();

  await reader.catch(async (e: unknown) => {
    if (!sessionOver) await note(`reading stdin failed: ${(e as Error).message}`);
  });
  // Nobody is listening for keep-alives once the host's input has ended.
  keepAlive.stop();
  d.elicitation?.disconnect();
  channel.closeInput();
  queue.close();
  state.query?.endInput();
  if (consuming) await consuming;
  await requests.settled();
  return sink.lastResult?.is_error ? 1 : 0;
}
