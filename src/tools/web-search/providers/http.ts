/**
 * The HTTP call of the search APIs (Brave, Tavily, SearXNG): a JSON request over Node's `fetch`
 * with a time limit, retried on 429, 500, 502, 503 and 504 (at most `retries` times, waiting
 * `retry-after` when the API says, up to 10 s, else 0.5 s, 1 s, …), and failures worded for the
 * model with the provider's name and, for a refused key, the variable that holds it.
 */
import { AbortError, ToolExecutionError } from '../../../core/errors.js';

export interface JsonRequest {
  /** Provider name for messages (`Brave Search`). */
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  signal: AbortSignal;
  timeoutMs?: number;
  retries?: number;
  /** What to check after a 401/403 (`check the key in BRAVE_API_KEY`). */
  refusedHint?: string;
}

const RETRYABLE = new Set([429, 500, 502, 503, 504]);

function waitMs(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(10_000, seconds * 1000);
  return 500 * 2 ** attempt;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new AbortError('The search was interrupted.'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('The search was interrupted.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Sends the request and parses the JSON answer. Throws ToolExecutionError or AbortError. */
export async function requestJson(request: JsonRequest): Promise<unknown> {
  const retries = request.retries ?? 2;
  const timeoutMs = request.timeoutMs ?? 30_000;
  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method ?? 'GET',
        headers: {
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.any([request.signal, timeout]),
      });
    } catch (error) {
      if (request.signal.aborted) throw new AbortError('The search was interrupted.');
      const why = timeout.aborted
        ? `no answer within ${timeoutMs / 1000} s`
        : String((error as Error).cause ?? error);
      if (attempt < retries) {
        await sleep(waitMs(attempt, null), request.signal);
        continue;
      }
      throw new ToolExecutionError(`${request.label} could not be reached (${why}).`);
    }
    if (RETRYABLE.has(response.status) && attempt < retries) {
      await response.body?.cancel().catch(() => {});
      await sleep(waitMs(attempt, response.headers.get('retry-after')), request.signal);
      continue;
    }
    const text = await response.text();
    if (response.status === 401 || response.status === 403)
      throw new ToolExecutionError(
        `${request.label} refused the request (HTTP ${response.status})${request.refusedHint ? `: ${request.refusedHint}` : ''}.`,
      );
    if (!response.ok)
      throw new ToolExecutionError(
        `${request.label} answered HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''}.`,
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new ToolExecutionError(`${request.label} sent an answer that is not JSON.`);
    }
  }
}

/** A string field of an API object, or ''. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The array at `value`, or []. */
export function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    : [];
}
