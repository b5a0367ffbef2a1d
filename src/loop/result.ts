/**
 * The `result` event that closes every prompt's turn (shape in types.ts; Claude Code's `result`).
 * Cost and usage figures are the session's running totals; `num_turns`, `duration_ms` and
 * `duration_api_ms` are this prompt's.
 */
import { randomUUID } from 'node:crypto';
import type { StopReason } from '../core/messages.js';
import type { LoopSession } from './session.js';
import type { PermissionDenial, ResultEvent, ResultSubtype, TerminalReason } from './types.js';

export interface ResultFacts {
  subtype: ResultSubtype;
  isError: boolean;
  text?: string;
  errors?: string[];
  numTurns: number;
  durationMs: number;
  apiMs: number;
  stopReason: StopReason | null;
  denials: PermissionDenial[];
  terminal: TerminalReason;
  apiErrorStatus?: number;
}

export function buildResult(s: LoopSession, f: ResultFacts): ResultEvent {
  const result: ResultEvent = {
    type: 'result',
    subtype: f.subtype,
    is_error: f.isError,
    ...(f.text !== undefined ? { result: f.text } : {}),
    ...(f.errors?.length ? { errors: f.errors } : {}),
    num_turns: f.numTurns,
    duration_ms: Math.round(f.durationMs),
    duration_api_ms: Math.round(f.apiMs),
    stop_reason: f.stopReason,
    total_cost_usd: s.usage.totalCostUsd,
    usage: s.usage.usage(),
    modelUsage: s.usage.modelUsage(),
    permission_denials: f.denials,
    terminal_reason: f.terminal,
    ...(f.apiErrorStatus !== undefined ? { api_error_status: f.apiErrorStatus } : {}),
    result_index: s.resultIndex++,
    session_id: s.sessionId,
    uuid: randomUUID(),
  };
  s.writer?.costState({
    ...s.usage.toState(),
    totalAPIDurationMs: s.apiDurationMs,
    numTurns: s.numTurns,
  });
  s.writer?.sync();
  return result;
}
