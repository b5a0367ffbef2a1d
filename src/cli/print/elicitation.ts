/**
 * MCP elicitations in print mode (docs/cli-print.md "Gantry → host"). When an MCP server asks
 * for input (`elicitation/create`, the MCP client's `elicitation` capability), the question goes:
 *
 * - with a host on stream-json input (the Agent SDK): to the host as an `elicitation` control
 *   request `{mcp_server_name, message, mode, url?, elicitation_id?, requested_schema?}`; its
 *   answer `{action: "accept" | "decline" | "cancel", content?}` goes back to the server (the SDK
 *   answers with its `onElicitation` callback, or `{action: "decline"}` without one);
 * - with nobody to ask (text input, or the host's input has ended, or the host answered with an
 *   error or something that is not an answer): `decline`.
 *
 * The MCP servers are connected before the host session exists, so the set-up gets
 * `ElicitationRoute.handler`, which declines until `connect` names where questions go.
 */
import type {
  ElicitationAnswer,
  ElicitationHandler,
  ElicitationRequest,
} from '../../mcp/client/connection/connection.js';
import type { ControlChannel } from './control-channel.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The control request for one elicitation. */
export function elicitationControlRequest(
  request: ElicitationRequest,
): Record<string, unknown> & { subtype: 'elicitation' } {
  return {
    subtype: 'elicitation',
    mcp_server_name: request.serverName,
    message: request.message,
    mode: request.mode,
    ...(request.url !== undefined ? { url: request.url } : {}),
    ...(request.elicitationId !== undefined ? { elicitation_id: request.elicitationId } : {}),
    ...(request.requestedSchema !== undefined ? { requested_schema: request.requestedSchema } : {}),
  };
}

type ContentValue = string | number | boolean | string[];
const isContentValue = (v: unknown): v is ContentValue =>
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/**
 * The host's answer as an MCP elicitation result. Only `accept` carries content, and only the
 * values an elicitation form can hold (strings, numbers, booleans, lists of strings); anything
 * that is not a known action is a `decline`.
 */
export function parseElicitationAnswer(answer: Record<string, unknown>): ElicitationAnswer {
  if (answer.action === 'cancel') return { action: 'cancel' };
  if (answer.action !== 'accept') return { action: 'decline' };
  if (!isObj(answer.content)) return { action: 'accept' };
  const content: Record<string, ContentValue> = {};
  for (const [k, v] of Object.entries(answer.content)) if (isContentValue(v)) content[k] = v;
  return { action: 'accept', content };
}

/** Elicitations sent to the host over the control channel. */
export function hostElicitation(channel: ControlChannel): ElicitationHandler {
  return async (request, signal) => {
    try {
      return parseElicitationAnswer(await channel.request(elicitationControlRequest(request), signal));
    } catch {
      return { action: 'decline' };
    }
  };
}

/** A handler for the set-up that forwards to whatever `connect` names later (declines before). */
export class ElicitationRoute {
  private target: ElicitationHandler | undefined;

  readonly handler: ElicitationHandler = (request, signal) =>
    this.target ? this.target(request, signal) : Promise.resolve({ action: 'decline' });

  connect(target: ElicitationHandler): void {
    this.target = target;
  }

  disconnect(): void {
    this.target = undefined;
  }
}
