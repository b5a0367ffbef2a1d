/**
 * The control protocol of `--input-format stream-json` (the one the Claude Agent SDK speaks; see
 * docs/cli-print.md "Control protocol"): requests in both directions on the same stdin/stdout
 * as the conversation.
 *
 *   request   {"type":"control_request","request_id":ID,"request":{"subtype":…, …}}
 *   success   {"type":"control_response","response":{"subtype":"success","request_id":ID,"response":{…}}}
 *   error     {"type":"control_response","response":{"subtype":"error","request_id":ID,"error":"…"}}
 *   cancel    {"type":"control_cancel_request","request_id":ID}
 *
 * This file is the CLI→host half: `request()` sends a request with a fresh UUID and resolves with
 * the host's `response` object, or rejects with `ControlRequestError` on an error answer, an abort
 * (a cancel is sent), or when the host's input has ended (no answer can come any more).
 */
import { randomUUID } from 'node:crypto';
import type { LineWriter } from './line-writer.js';

export class ControlRequestError extends Error {
  override readonly name = 'ControlRequestError';
  constructor(
    message: string,
    /** `host_error` (the host answered with an error), `aborted`, `input_closed`. */
    readonly kind: 'host_error' | 'aborted' | 'input_closed',
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (response: Record<string, unknown>) => void;
  reject: (error: ControlRequestError) => void;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class ControlChannel {
  private readonly pending = new Map<string, Pending>();
  private inputClosed = false;

  constructor(private readonly out: LineWriter) {}

  /** Requests awaiting an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Sends `request` (which must hold `subtype`) and waits for the answer. */
  request(
    request: Record<string, unknown> & { subtype: string },
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (this.inputClosed)
      return Promise.reject(
        new ControlRequestError(
          `the host's input has ended; ${request.subtype} cannot be answered`,
          'input_closed',
        ),
      );
    if (signal?.aborted)
      return Promise.reject(new ControlRequestError(`${request.subtype} aborted`, 'aborted'));
    const requestId = randomUUID();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.pending.delete(requestId)) return;
        void this.out.writeJson({ type: 'control_cancel_request', request_id: requestId });
        reject(new ControlRequestError(`${request.subtype} aborted`, 'aborted'));
      };
      this.pending.set(requestId, {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      void this.out.writeJson({ type: 'control_request', request_id: requestId, request });
    });
  }

  /**
   * Takes a `control_response` line from the host. Returns false when it matches no pending
   * request (late answers to cancelled requests are expected and ignored).
   */
  handleResponse(line: Record<string, unknown>): boolean {
    const response = isObj(line.response) ? line.response : undefined;
    const requestId = response && typeof response.request_id === 'string' ? response.request_id : undefined;
    if (!response || !requestId) return false;
    const p = this.pending.get(requestId);
    if (!p) return false;
    this.pending.delete(requestId);
    if (response.subtype === 'error') {
      const text =
        typeof response.error === 'string' && response.error
          ? response.error
          : 'the host answered with an error';
      p.reject(new ControlRequestError(text, 'host_error'));
    } else {
      p.resolve(isObj(response.response) ? response.response : {});
    }
    return true;
  }

  /** The host's input ended: every pending request fails now and later ones fail at once. */
  closeInput(): void {
    this.inputClosed = true;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new ControlRequestError("the host's input ended before it answered", 'input_closed'));
    }
  }

  /** Answers a host→CLI request with success. */
  respond(requestId: string, response: Record<string, unknown>): Promise<void> {
    return this.out.writeJson({
      type: 'control_response',
      response: { subtype: 'success', request_id: requestId, response },
    });
  }

  /** Answers a host→CLI request with an error. */
  respondError(requestId: string, error: string): Promise<void> {
    return this.out.writeJson({
      type: 'control_response',
      response: { subtype: 'error', request_id: requestId, error },
    });
  }
}
