/**
 * The stderr of a stdio MCP server, kept in `<sessionDir>/mcp-logs/<server>.log` (the server's own
 * diagnostics; Claude Code keeps them in its MCP logs too). Bounded: after `maxBytes` (default
 * 10 MiB) further output is dropped and one line says so, so a server that floods stderr cannot
 * fill the disk. The last `tailChars` characters are also kept in memory for error reports (a
 * server that exits at start-up usually says why on stderr).
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

export const DEFAULT_STDERR_LOG_MAX_BYTES = 10 * 1024 * 1024;

export class StderrLog {
  readonly file: string;
  private stream: WriteStream | undefined;
  private written = 0;
  private tail = '';
  private capped = false;

  constructor(
    sessionDir: string,
    serverName: string,
    private readonly maxBytes = DEFAULT_STDERR_LOG_MAX_BYTES,
    private readonly tailChars = 4000,
  ) {
    const safe = serverName.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100) || 'server';
    this.file = path.join(sessionDir, 'mcp-logs', `${safe}.log`);
  }

  /** Starts copying `stream` into the log. */
  attach(stream: Readable | null | undefined): void {
    if (!stream) return;
    stream.on('data', (chunk: Buffer | string) => this.write(chunk));
    stream.on('error', () => undefined);
  }

  write(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.tail = (this.tail + buf.toString('utf8')).slice(-this.tailChars);
    if (this.capped) return;
    if (!this.stream) {
      try {
        mkdirSync(path.dirname(this.file), { recursive: true });
        this.stream = createWriteStream(this.file, { flags: 'a', mode: 0o600 });
        this.stream.on('error', () => {
          this.capped = true;
        });
      } catch {
        this.capped = true;
        return;
      }
    }
    if (this.written + buf.length > this.maxBytes) {
      this.capped = true;
      this.stream.write(`\n[gantry: stderr log capped at ${this.maxBytes} bytes; later output dropped]\n`);
      return;
    }
    this.written += buf.length;
    this.stream.write(buf);
  }

  /** The last characters written (for error messages). */
  recent(): string {
    return this.tail;
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    this.capped = true;
    if (!stream) return Promise.resolve();
    return new Promise((resolve) => stream.end(resolve));
  }
}
