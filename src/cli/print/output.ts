/**
 * The three output formats of print mode (Claude Code documentation, "Run Claude Code
 * programmatically", "CLI reference"):
 *
 * - `text`: the final result text and a newline on stdout. A failed run prints nothing on stdout
 *   and its reason (the result text, or the `errors`) on stderr.
 * - `json`: the final `result` event as one JSON object on stdout, success or not.
 * - `stream-json`: every event the loop yields, one JSON object per line, as it comes (the loop
 *   already lists the Agent tool as `Task` in `system/init`); `stream_event`s only with
 *   `--include-partial-messages`.
 *
 * `startupError` builds the result a run reports when it cannot start (bad settings, no model
 * credentials, an unknown session): `subtype: "error_during_execution"`, `is_error: true`, the
 * message in `errors`, zero usage.
 */
import { randomUUID } from 'node:crypto';
import type { QueryEvent, ResultEvent } from '../../loop/types.js';
import type { OutputFormat } from './args.js';
import type { LineWriter } from './line-writer.js';

export interface OutputOptions {
  format: OutputFormat;
  includePartialMessages: boolean;
}

/** The result of a run that could not start (see the module comment). */
export function startupError(message: string, sessionId: string): ResultEvent {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    errors: [message],
    num_turns: 0,
    duration_ms: 0,
    duration_api_ms: 0,
    stop_reason: null,
    total_cost_usd: 0,
    usage: {
      input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 0,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: 'standard',
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    },
    modelUsage: {},
    permission_denials: [],
    terminal_reason: 'internal_error',
    result_index: 0,
    session_id: sessionId,
    uuid: randomUUID(),
  };
}

/** What a failed result tells a person (text mode, on stderr). */
export function failureText(result: ResultEvent): string {
  if (result.result) return result.result;
  if (result.errors?.length) return result.errors.join('\n');
  return `the run ended with ${result.subtype} (${result.terminal_reason})`;
}

export class OutputSink {
  private last: ResultEvent | undefined;

  constructor(
    private readonly out: LineWriter,
    private readonly err: LineWriter,
    private readonly options: OutputOptions,
  ) {}

  /** The last result seen. */
  get lastResult(): ResultEvent | undefined {
    return this.last;
  }

  /** Takes one loop event. */
  async event(event: QueryEvent): Promise<void> {
    if (event.type === 'result') this.last = event;
    if (this.options.format !== 'stream-json') return;
    if (event.type === 'stream_event' && !this.options.includePartialMessages) return;
    await this.out.writeJson(event);
  }

  /** A line that is not a loop event (a replayed user message). */
  async extra(line: Record<string, unknown>): Promise<void> {
    if (this.options.format === 'stream-json') await this.out.writeJson(line);
  }

  /** Writes the final output of text and json runs. */
  async finish(): Promise<void> {
    const r = this.last;
    if (!r) return;
    if (this.options.format === 'json') await this.out.writeJson(r);
    else if (this.options.format === 'text') {
      if (r.is_error) await this.err.writeRaw(`gantry: ${failureText(r)}\n`);
      else await this.out.writeRaw(`${r.result ?? ''}\n`);
    }
  }

  /** Reports a run that could not start, in the run's format. */
  async failStart(message: string, sessionId: string): Promise<void> {
    const r = startupError(message, sessionId);
    this.last = r;
    if (this.options.format === 'text') await this.err.writeRaw(`gantry: ${message}\n`);
    else await this.out.writeJson(r);
  }
}
