/**
 * A configured language server as a session resource (`lsp:<name>` in the session services): it
 * starts the process on first use, keeps the documents it was shown in sync, collects the
 * diagnostics the server publishes, and starts the process again on the next use after it crashed
 * (up to `maxRestarts` times, when `restartOnCrash`). `dispose()` stops it for good.
 *
 * Document sync (LSP full sync): `sync(file)` reads the file from disk; the first time it sends
 * `textDocument/didOpen` (version 1), later only when the text changed, `textDocument/didChange`
 * with the whole text and the next version. At most {@link MAX_OPEN_DOCUMENTS} documents stay open;
 * the one used longest ago is closed (`didClose`) to make room. A restart reopens nothing: documents
 * are opened again as they are used.
 *
 * Diagnostics: every `publishDiagnostics` is stored per URI with a sequence number, so a caller can
 * wait for the first publication after its own change ({@link LspServer.waitForDiagnostics}).
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { type LspClient, LspStartError, startLspClient } from './client.js';
import type { LspServerConfig } from './config.js';

/** Most documents kept open per server. */
export const MAX_OPEN_DOCUMENTS = 64;

/** Quiet time after a publication before the diagnostics of a file count as settled (ms). */
const DIAGNOSTICS_SETTLE_MS = 250;
/**
 * The same after an empty publication: it may answer an earlier text (servers that send no
 * `version` cannot say which), with the answer for the new text still to come.
 */
const EMPTY_DIAGNOSTICS_SETTLE_MS = 1_000;

interface OpenDocument {
  uri: string;
  version: number;
  text: string;
}

/** A document after `sync`. */
export interface SyncedDocument {
  uri: string;
  /** The text the server now has. */
  text: string;
  /** True when didOpen or didChange was sent (a publication of diagnostics will follow). */
  changed: boolean;
}

interface StoredDiagnostics {
  seq: number;
  diagnostics: Diagnostic[];
}

export interface LspServerOptions {
  config: LspServerConfig;
  env?: Readonly<Record<string, string | undefined>>;
}

export class LspServer {
  readonly config: LspServerConfig;
  private readonly env: Readonly<Record<string, string | undefined>> | undefined;
  private client: LspClient | undefined;
  private starting: Promise<LspClient> | undefined;
  private restarts = 0;
  private started = 0;
  private disposed = false;
  private readonly documents = new Map<string, OpenDocument>();
  private readonly diagnostics = new Map<string, StoredDiagnostics>();
  private seq = 0;
  private readonly waiters = new Set<() => void>();

  constructor(options: LspServerOptions) {
    this.config = options.config;
    this.env = options.env;
  }

  /** The server process id while it runs. */
  get pid(): number | undefined {
    return this.client?.alive ? this.client.pid : undefined;
  }

  /** True while the process runs. */
  get running(): boolean {
    return this.client?.alive === true;
  }

  /** The running client, starting (or restarting) the process when needed. Rejects with {@link LspStartError}. */
  async ensureStarted(): Promise<LspClient> {
    if (this.disposed)
      throw new LspStartError(`LSP server "${this.config.name}" was stopped with its session`);
    if (this.client?.alive) return this.client;
    if (this.starting) return this.starting;
    if (this.client && !this.client.alive) {
      // It exited on its own: a crash.
      if (!this.config.restartOnCrash)
        throw new LspStartError(
          `LSP server "${this.config.name}" exited and restartOnCrash is false${this.client.stderrTail() ? `:\n${this.client.stderrTail()}` : ''}`,
        );
      if (this.restarts >= this.config.maxRestarts)
        throw new LspStartError(
          `LSP server "${this.config.name}" crashed ${this.restarts + 1} times; it is not restarted again in this session (maxRestarts ${this.config.maxRestarts})`,
        );
      this.restarts++;
    }
    this.documents.clear();
    this.starting = startLspClient({
      config: this.config,
      ...(this.env ? { env: this.env } : {}),
      onDiagnostics: (params) => this.storeDiagnostics(params),
    });
    try {
      const client = await this.starting;
      this.started++;
      this.client = client;
      if (this.disposed) {
        await client.dispose();
        throw new LspStartError(`LSP server "${this.config.name}" was stopped with its session`);
      }
      return client;
    } finally {
      this.starting = undefined;
    }
  }

  /** How many times the process was started (1 after the first use, +1 per restart). */
  get startCount(): number {
    return this.started;
  }

  /**
   * Makes the server's copy of `file` (absolute) match the disk: didOpen the first time, didChange
   * when the text differs. Returns the document's URI, its text, and whether anything was sent.
   * Rejects when the file cannot be read.
   */
  async sync(client: LspClient, file: string, languageId: string): Promise<SyncedDocument> {
    const text = await readFile(file, 'utf8');
    const uri = pathToFileURL(file).href;
    const open = this.documents.get(uri);
    if (open) {
      this.documents.delete(uri);
      this.documents.set(uri, open); // most recently used last
      if (open.text === text) return { uri, text, changed: false };
      open.version++;
      open.text = text;
      client.notify('textDocument/didChange', {
        textDocument: { uri, version: open.version },
        contentChanges: [{ text }],
      });
      return { uri, text, changed: true };
    }
    while (this.documents.size >= MAX_OPEN_DOCUMENTS) {
      const oldest = this.documents.keys().next().value as string;
      this.documents.delete(oldest);
      client.notify('textDocument/didClose', { textDocument: { uri: oldest } });
    }
    this.documents.set(uri, { uri, version: 1, text });
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return { uri, text, changed: true };
  }

  /** The sequence number of the latest publication (pass it to `waitForDiagnostics`). */
  get diagnosticsSeq(): number {
    return this.seq;
  }

  /** The last diagnostics published for `uri`, if any. */
  diagnosticsFor(uri: string): Diagnostic[] | undefined {
    return this.diagnostics.get(uri)?.diagnostics;
  }

  /**
   * Waits for the diagnostics of `uri` published after sequence number `after`, then for a quiet
   * time (servers may publish in steps, or answer an earlier text first): 250 ms, or 1 s after an
   * empty list. Resolves with the latest, or undefined when none came within `timeoutMs` or
   * `signal` aborted.
   */
  async waitForDiagnostics(
    uri: string,
    after: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Diagnostic[] | undefined> {
    const deadline = Date.now() + timeoutMs;
    const fresh = (): StoredDiagnostics | undefined => {
      const got = this.diagnostics.get(uri);
      return got && got.seq > after ? got : undefined;
    };
    const waitChange = (ms: number): Promise<void> =>
      new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        this.waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    while (!fresh()) {
      if (signal?.aborted || Date.now() >= deadline || !this.running) return undefined;
      await waitChange(deadline - Date.now());
    }
    // Settle: keep waiting while new publications for the file keep coming.
    for (;;) {
      const seen = this.diagnostics.get(uri)?.seq ?? 0;
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal?.aborted) break;
      const quiet = this.diagnostics.get(uri)?.diagnostics.length
        ? DIAGNOSTICS_SETTLE_MS
        : EMPTY_DIAGNOSTICS_SETTLE_MS;
      await waitChange(Math.min(quiet, remaining));
      if ((this.diagnostics.get(uri)?.seq ?? 0) === seen) break;
    }
    return this.diagnostics.get(uri)?.diagnostics;
  }

  private storeDiagnostics(params: PublishDiagnosticsParams): void {
    const open = this.documents.get(params.uri);
    // A publication for an older version than the one we sent is stale.
    if (open && typeof params.version === 'number' && params.version < open.version) return;
    this.seq++;
    this.diagnostics.set(params.uri, { seq: this.seq, diagnostics: params.diagnostics });
    for (const wake of [...this.waiters]) wake();
  }

  /** Stops the process for good (session end). Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const starting = this.starting;
    if (starting) await starting.catch(() => undefined);
    await this.client?.dispose();
    for (const wake of [...this.waiters]) wake();
  }
}
