/**
 * The scripting vocabulary shared by the fake Anthropic and OpenAI-compatible servers
 * (`fake-anthropic-server.ts`, `fake-openai-server.ts`): one script drives either fake, so a loop
 * test can run the same session against both providers.
 *
 * A script is a list of entries; each model request takes the next entry. An entry is a reply, or
 * a function of the recorded request returning one (to answer subagents, forks, or depending on
 * the last message). Routes (`FakeRoute`) claim requests by a predicate before the main script.
 *
 * Replies:
 * - `message`: an assistant message streamed with real SSE framing — text, tool calls (input JSON
 *   split into fragments), thinking (with a signature), redacted thinking — with knobs for chunk
 *   size, delays between events, a stall, a dropped connection or an in-stream error after N events.
 * - `http_error`: a JSON error body with a status (529 overloaded, 429 with `retry-after`, 401 …).
 * - `malformed`: a 200 stream whose data is not JSON after the first event.
 * - `no_response`: the request is read and never answered (abort/timeout tests).
 *
 * Builders (`reply.text`, `reply.toolUse`, `reply.overloaded`, …) make scripts short:
 *
 * ```ts
 * const server = await startFakeAnthropicServer({
 *   script: [
 *     reply.message([text('Reading it.'), toolUse('Read', { file_path: '/tmp/a' })]),
 *     reply.overloaded(),
 *     reply.text('Done.'),
 *   ],
 * });
 * ```
 */
import type { StopReason, Usage } from '../core/messages.js';

/** A content block of a scripted assistant message. */
export type FakeBlock =
  | { type: 'text'; text: string }
  | {
      type: 'tool_use';
      /** Default: a deterministic `toolu_fake_<request>_<block>` id. */
      id?: string;
      name: string;
      input: unknown;
      /** Send this text as the input JSON instead of `JSON.stringify(input)` (invalid-JSON tests). */
      rawJson?: string;
    }
  | { type: 'thinking'; thinking: string /** Default: a deterministic `sig_fake_…`. */; signature?: string }
  | { type: 'redacted_thinking'; data: string };

export interface FakeStreamKnobs {
  /** Text, thinking and input JSON are sent in deltas of this many characters (default 16). */
  chunkChars?: number;
  /** Wait between two SSE events, in ms (default 0). */
  delayMs?: number;
  /** Send this many SSE events, then nothing more while keeping the connection open. */
  stallAfterEvents?: number;
  /** Send this many SSE events, then destroy the connection. */
  dropAfterEvents?: number;
  /** Send this many SSE events, then an in-stream error event, then end the response. */
  errorAfterEvents?: { events: number; errorType: string; message?: string };
  /** Wait this long after the last event before ending the response, in ms (the end arrives late). */
  endDelayMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

export interface FakeMessageReply extends FakeStreamKnobs {
  type: 'message';
  content: FakeBlock[];
  /** Default: `tool_use` when the content has a tool call, else `end_turn`. */
  stopReason?: StopReason;
  /** Overrides of the usage the fake computes (simulated cache, chars/4 estimates). */
  usage?: Partial<Usage>;
  /** Response id (default a deterministic `msg_fake_<n>` / `chatcmpl_fake_<n>`). */
  id?: string;
  /** Model reported back (default: the request's model). */
  model?: string;
}

export interface FakeHttpErrorReply {
  type: 'http_error';
  status: number;
  /** Error type in the body (default by status: `overloaded_error` for 529, …). */
  errorType?: string;
  message?: string;
  headers?: Record<string, string>;
  /** Send this body verbatim instead of the JSON error object. */
  rawBody?: string;
}

export interface FakeMalformedReply {
  type: 'malformed';
  /** The bad data line (default `{"type": "content_block_start", "index": 0,` — cut JSON). */
  raw?: string;
}

export interface FakeNoResponseReply {
  type: 'no_response';
}

export type FakeReply = FakeMessageReply | FakeHttpErrorReply | FakeMalformedReply | FakeNoResponseReply;

/** What a script function sees: the request as recorded (see `RecordedRequest`). */
export interface ScriptRequest {
  /** Arrival order across every endpoint, from 0. */
  index: number;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when it did not parse). */
  body: any;
  rawBody: string;
}

export type ScriptEntry = FakeReply | ((request: ScriptRequest) => FakeReply | Promise<FakeReply>);

/** Requests for which `when` is true take their replies from `script` instead of the main script. */
export interface FakeRoute {
  /** For error messages when the route runs out. */
  name?: string;
  when: (request: ScriptRequest) => boolean;
  /** A list consumed in order, or one function answering every matching request. */
  script: ScriptEntry[] | ((request: ScriptRequest) => FakeReply | Promise<FakeReply>);
}

export function text(value: string): FakeBlock {
  return { type: 'text', text: value };
}

export function toolUse(
  name: string,
  input: unknown,
  options: { id?: string; rawJson?: string } = {},
): FakeBlock {
  return { type: 'tool_use', name, input, ...options };
}

export function thinking(value: string, signature?: string): FakeBlock {
  return signature === undefined
    ? { type: 'thinking', thinking: value }
    : { type: 'thinking', thinking: value, signature };
}

export function redactedThinking(data: string): FakeBlock {
  return { type: 'redacted_thinking', data };
}

/** Reply builders. */
export const reply = {
  message(content: FakeBlock[], options: Omit<FakeMessageReply, 'type' | 'content'> = {}): FakeMessageReply {
    return { type: 'message', content, ...options };
  },
  text(value: string, options: Omit<FakeMessageReply, 'type' | 'content'> = {}): FakeMessageReply {
    return { type: 'message', content: [text(value)], ...options };
  },
  toolUse(
    name: string,
    input: unknown,
    options: Omit<FakeMessageReply, 'type' | 'content'> & { id?: string } = {},
  ): FakeMessageReply {
    const { id, ...rest } = options;
    return { type: 'message', content: [toolUse(name, input, id ? { id } : {})], ...rest };
  },
  error(status: number, options: Omit<FakeHttpErrorReply, 'type' | 'status'> = {}): FakeHttpErrorReply {
    return { type: 'http_error', status, ...options };
  },
  /** 529 `overloaded_error`. */
  overloaded(options: Omit<FakeHttpErrorReply, 'type' | 'status'> = {}): FakeHttpErrorReply {
    return { type: 'http_error', status: 529, ...options };
  },
  /** 429 with `retry-after: <seconds>` (and `retry-after-ms` when `ms` is given instead). */
  rateLimited(wait: { seconds?: number; ms?: number } = {}): FakeHttpErrorReply {
    const headers: Record<string, string> = {};
    if (wait.seconds !== undefined) headers['retry-after'] = String(wait.seconds);
    if (wait.ms !== undefined) headers['retry-after-ms'] = String(wait.ms);
    return { type: 'http_error', status: 429, headers };
  },
  unauthorized(): FakeHttpErrorReply {
    return { type: 'http_error', status: 401 };
  },
  malformed(raw?: string): FakeMalformedReply {
    return raw === undefined ? { type: 'malformed' } : { type: 'malformed', raw };
  },
  /** Headers and no events, then silence (abort tests). */
  stall(options: { afterEvents?: number; content?: FakeBlock[] } = {}): FakeMessageReply {
    return {
      type: 'message',
      content: options.content ?? [text('This reply never finishes.')],
      stallAfterEvents: options.afterEvents ?? 0,
    };
  },
  noResponse(): FakeNoResponseReply {
    return { type: 'no_response' };
  },
};

/** Splits `s` into pieces of at most `size` characters (at least one piece, possibly empty). */
export function chunks(s: string, size: number): string[] {
  const n = Math.max(1, Math.floor(size));
  if (s.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

/** The deterministic token estimator both fakes use: ceil(characters / 4). */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Text of the last user message of a Messages-API or Chat-Completions body (for route predicates). */
export function lastUserText(body: any): string {
  const messages: any[] = Array.isArray(body?.messages)
    ? body.messages
    : Array.isArray(body?.input)
      ? body.input
      : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      return m.content
        .filter((b: any) => b?.type === 'text' || b?.type === 'input_text')
        .map((b: any) => b.text)
        .join('\n');
    }
  }
  return '';
}

/** The system prompt text of a Messages-API body (`system` string or blocks) or Chat body (system messages). */
export function systemText(body: any): string {
  if (typeof body?.system === 'string') return body.system;
  if (Array.isArray(body?.system)) return body.system.map((b: any) => b?.text ?? '').join('\n');
  if (typeof body?.instructions === 'string') return body.instructions;
  if (Array.isArray(body?.messages)) {
    return body.messages
      .filter((m: any) => m?.role === 'system' || m?.role === 'developer')
      .map((m: any) => (typeof m.content === 'string' ? m.content : ''))
      .join('\n');
  }
  return '';
}

/** The agent id header of a request (`x-gantry-agent-id`, else `x-claude-code-agent-id`). */
export function agentIdOf(request: ScriptRequest): string | undefined {
  return request.headers['x-gantry-agent-id'] ?? request.headers['x-claude-code-agent-id'];
}
