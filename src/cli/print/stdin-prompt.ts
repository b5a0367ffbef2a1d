/**
 * The prompt of a text-input run: the prompt argument and piped stdin (Claude Code documentation,
 * "Run Claude Code programmatically": piped input is read alongside the prompt, up to 10 MB).
 *
 * Order: the prompt argument first, then a blank line, then the piped text — the instruction,
 * then the data it is about (`git diff | gantry -p "review this"`). Either alone is the prompt.
 *
 * - stdin is read only when it is not a terminal; a trailing newline of the piped text is dropped.
 * - More than `MAX_STDIN_BYTES` is an error (nothing is cut silently).
 * - With a prompt argument, a pipe that stays silent for `idleMs` (default 3 s) — a parent that
 *   left stdin open and writes nothing — is not waited for: the run goes on without it and a
 *   note says so. Without a prompt argument stdin is the prompt, so it is read to its end.
 * - Bytes that are not UTF-8 are decoded with replacement characters.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

export class StdinTooLargeError extends Error {
  override readonly name = 'StdinTooLargeError';
  constructor() {
    super(
      `piped input is larger than ${MAX_STDIN_BYTES / 1024 / 1024} MB; pass a file path in the prompt instead`,
    );
  }
}

export interface ReadStdinOptions {
  /** Give up waiting for a first byte after this long when a prompt argument exists (ms). */
  idleMs?: number;
  /** A prompt argument was given (see the module comment). */
  havePrompt: boolean;
  maxBytes?: number;
}

export interface StdinText {
  text: string;
  /** The pipe sent nothing within `idleMs` and was left unread. */
  timedOut: boolean;
}

/** Reads piped text (see the module comment). Rejects with `StdinTooLargeError`. */
export function readStdinText(stream: Readable, options: ReadStdinOptions): Promise<StdinText> {
  const maxBytes = options.maxBytes ?? MAX_STDIN_BYTES;
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let text = '';
    let bytes = 0;
    let gotData = false;
    let settled = false;
    const finish = (err?: Error, timedOut = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      if (err || timedOut) stream.pause();
      if (err) reject(err);
      else resolve({ text: timedOut ? '' : text.replace(/\r?\n$/, ''), timedOut });
    };
    const onData = (chunk: Buffer | string): void => {
      gotData = true;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buf.length;
      if (bytes > maxBytes) {
        finish(new StdinTooLargeError());
        return;
      }
      text += decoder.write(buf);
    };
    const onEnd = (): void => {
      text += decoder.end();
      finish();
    };
    const onError = (e: Error): void => finish(e);
    const timer =
      options.havePrompt && (options.idleMs ?? 3000) > 0
        ? setTimeout(() => {
            if (!gotData) finish(undefined, true);
          }, options.idleMs ?? 3000)
        : undefined;
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.resume();
  });
}

/** The prompt a run starts with (see the module comment); undefined when there is none. */
export function combinePrompt(prompt: string | undefined, piped: string | undefined): string | undefined {
  const p = prompt !== undefined && prompt.trim() !== '' ? prompt : undefined;
  const s = piped !== undefined && piped.trim() !== '' ? piped : undefined;
  if (p !== undefined && s !== undefined) return `${p}\n\n${s}`;
  return p ?? s;
}
