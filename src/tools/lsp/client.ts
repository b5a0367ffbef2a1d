/**
 * One running language-server process and the JSON-RPC connection to it (`vscode-jsonrpc` over the
 * process's stdio, the message types of `vscode-languageserver-protocol`).
 *
 * Sequence of `startLspClient`: spawn the command in its own process group (detached, so stopping
 * it also stops the helpers it started, e.g. tsserver) → listen → `initialize` (with our client
 * capabilities, the workspace folder and the entry's `initializationOptions`) → `initialized` →
 * `workspace/didChangeConfiguration` when the entry has `settings`. The whole start is bounded by
 * `startupTimeoutMs`; a spawn failure (missing binary), an early exit or the timeout rejects with an
 * {@link LspStartError} whose message says what happened (with the tail of the server's stderr) and
 * leaves no process behind.
 *
 * Requests from the server that a client must answer: `workspace/configuration` (from the entry's
 * `settings`, by dotted section), `client/registerCapability` / `unregisterCapability` and
 * `window/workDoneProgress/create` (accepted), `workspace/workspaceFolders`, `workspace/applyEdit`
 * (refused: this client is read-only), `window/showMessageRequest` (no choice), the `*\/refresh`
 * requests (accepted). Anything else gets MethodNotFound.
 *
 * `dispose()`: `shutdown` (bounded by `shutdownTimeoutMs`) → `exit` → wait for the process to end
 * → SIGTERM, then SIGKILL, to what is left of the group. Idempotent. The server gets a temporary
 * directory of its own (`TMPDIR`), removed when its group is gone, also after a crash.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  createMessageConnection,
  ErrorCodes,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import type {
  ClientCapabilities,
  ConfigurationParams,
  InitializeParams,
  InitializeResult,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol';
import { AbortError } from '../../core/errors.js';
import type { LspServerConfig } from './config.js';

/** The server could not be started (missing binary, early exit, start-up timeout, failed initialize). */
export class LspStartError extends Error {
  override name = 'LspStartError';
}

/** A request failed because the server process is gone. */
export class LspServerGoneError extends Error {
  override name = 'LspServerGoneError';
}

/** How the server process ended. */
export interface LspExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LspClient {
  readonly pid: number;
  readonly capabilities: InitializeResult['capabilities'];
  /** True until the process exited (on its own or by `dispose`). */
  readonly alive: boolean;
  /** Settles when the process has exited. */
  readonly exited: Promise<LspExit>;
  /** Sends a request; rejects on a server error, the request timeout, `signal`, or the process exiting. */
  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R>;
  notify(method: string, params: unknown): void;
  /** The last bytes the server wrote to stderr (for error messages). */
  stderrTail(): string;
  dispose(): Promise<void>;
}

export interface LspClientOptions {
  config: LspServerConfig;
  /** The session's environment (default `process.env`); the entry's `env` goes over it. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Called for every `textDocument/publishDiagnostics`. */
  onDiagnostics?: (params: PublishDiagnosticsParams) => void;
}

/** What we tell servers we understand. */
const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: false },
    symbol: { dynamicRegistration: false },
  },
  window: { workDoneProgress: true },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    definition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
  },
};

const STDERR_TAIL_BYTES = 4096;

/** Resolves a relative command with a slash against `base`; a bare name is left to `PATH`. */
function resolveCommand(command: string, base: string): string {
  return !path.isAbsolute(command) && command.includes('/') ? path.resolve(base, command) : command;
}

/** Value of a dotted `section` inside `settings` (the whole object for no section); null when absent. */
export function configurationSection(
  settings: Record<string, unknown> | undefined,
  section?: string,
): unknown {
  if (!settings) return null;
  if (!section) return settings;
  let node: unknown = settings;
  for (const part of section.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) {
      // A flat key with dots (`"typescript.format": {...}`) is accepted too.
      return Object.hasOwn(settings, section) ? settings[section] : null;
    }
    node = (node as Record<string, unknown>)[part];
  }
  return node ?? null;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Polls until no process of group `pid` is left or `ms` passed. True when the group is gone. */
async function waitGroupGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/** Rejects after `ms` with `make()`; the timer is cleared when `work` settles. */
function withTimeout<T>(work: Promise<T>, ms: number, make: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(make()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Starts the server (see the module comment). */
export async function startLspClient(options: LspClientOptions): Promise<LspClient> {
  const { config } = options;
  const command = resolveCommand(config.command, config.workspaceFolder);
  const label = `LSP server "${config.name}" (${[config.command, ...config.args].join(' ')})`;
  let stderr = '';
  // The server's own temporary directory (servers leave files there: tsserver's pipes), removed
  // once its process group is gone.
  const tmp = mkdtempSync(path.join(tmpdir(), 'gantry-lsp-'));
  let child: ChildProcess;
  try {
    child = spawn(command, config.args, {
      cwd: config.workspaceFolder,
      env: { ...(options.env ?? process.env), TMPDIR: tmp, TMP: tmp, TEMP: tmp, ...config.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw new LspStartError(`${label} could not be started: ${(e as Error).message}`);
  }
  let cleaning: Promise<void> | undefined;
  /** Stops what is left of the process group (SIGTERM, then SIGKILL), then removes `tmp`. Idempotent. */
  const cleanup = (): Promise<void> => {
    cleaning ??= (async () => {
      if (child.pid !== undefined) {
        killGroup(child.pid, 'SIGTERM');
        if (!(await waitGroupGone(child.pid, config.shutdownTimeoutMs))) killGroup(child.pid, 'SIGKILL');
        await waitGroupGone(child.pid, 1_000);
      }
      rmSync(tmp, { recursive: true, force: true });
    })();
    return cleaning;
  };
  let alive = true;
  let exitInfo: LspExit | undefined;
  const exited = new Promise<LspExit>((resolve) => {
    child.once('exit', (code, signal) => {
      alive = false;
      exitInfo = { code, signal };
      resolve(exitInfo);
      // On its own (a crash) or asked to: what it left running goes too.
      void cleanup();
    });
  });
  const spawnError = new Promise<never>((_, reject) => {
    child.once('error', (e: NodeJS.ErrnoException) => {
      alive = false;
      reject(
        new LspStartError(
          e.code === 'ENOENT'
            ? `${label} could not be started: command not found: ${command}`
            : `${label} could not be started: ${e.message}`,
        ),
      );
    });
  });
  spawnError.catch(() => undefined);
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  // A server that dies leaves broken pipes behind; those errors are reported through `exited`.
  child.stdin?.on('error', () => undefined);

  const tail = (): string => stderr.trim().split('\n').slice(-5).join('\n');
  const connection: MessageConnection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const root = pathToFileURL(config.workspaceFolder).href;
  const folders = [{ uri: root, name: path.basename(config.workspaceFolder) || config.workspaceFolder }];
  connection.onRequest('workspace/configuration', (params: ConfigurationParams) =>
    params.items.map((item) => configurationSection(config.settings, item.section)),
  );
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('client/unregisterCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('workspace/workspaceFolders', () => folders);
  connection.onRequest('window/showMessageRequest', () => null);
  connection.onRequest('workspace/applyEdit', () => ({
    applied: false,
    failureReason: 'this client does not apply edits',
  }));
  connection.onRequest((method: string) => {
    if (method.endsWith('/refresh')) return null;
    return new ResponseError(ErrorCodes.MethodNotFound, `${method} is not supported by this client`);
  });
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) =>
    options.onDiagnostics?.(params),
  );
  connection.onNotification(() => undefined);
  connection.onError(() => undefined);
  connection.listen();

  let disposing: Promise<void> | undefined;
  const hardStop = async (): Promise<void> => {
    connection.dispose();
    await cleanup();
  };

  const initialize = async (): Promise<InitializeResult> => {
    const params: InitializeParams = {
      processId: process.pid,
      clientInfo: { name: 'gantry' },
      rootUri: root,
      rootPath: config.workspaceFolder,
      workspaceFolders: folders,
      capabilities: CLIENT_CAPABILITIES,
      ...(config.initializationOptions !== undefined
        ? { initializationOptions: config.initializationOptions }
        : {}),
    };
    const result = await connection.sendRequest<InitializeResult>('initialize', params);
    await connection.sendNotification('initialized', {});
    if (config.settings)
      await connection.sendNotification('workspace/didChangeConfiguration', { settings: config.settings });
    return result;
  };

  let init: InitializeResult;
  try {
    const earlyExit = exited.then((e) => {
      throw new LspStartError(
        `${label} exited during start-up (${e.signal ?? `exit code ${e.code}`})${tail() ? `:\n${tail()}` : ''}`,
      );
    });
    init = await withTimeout(
      Promise.race([initialize(), spawnError, earlyExit]),
      config.startupTimeoutMs,
      () =>
        new LspStartError(
          `${label} did not finish starting within ${config.startupTimeoutMs} ms (startupTimeoutMs)${tail() ? `:\n${tail()}` : ''}`,
        ),
    );
  } catch (e) {
    await hardStop();
    if (e instanceof LspStartError) throw e;
    throw new LspStartError(
      `${label} failed to initialize: ${(e as Error).message}${tail() ? `\n${tail()}` : ''}`,
    );
  }
  const pid = child.pid as number;

  const gone = (): LspServerGoneError =>
    new LspServerGoneError(
      `${label} is not running (${exitInfo ? (exitInfo.signal ?? `exit code ${exitInfo.code}`) : 'stopped'})${tail() ? `:\n${tail()}` : ''}`,
    );

  return {
    pid,
    capabilities: init.capabilities,
    get alive() {
      return alive;
    },
    exited,
    async request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
      if (!alive || disposing) throw gone();
      if (signal?.aborted) throw new AbortError();
      const cancel = new CancellationTokenSource();
      const onAbort = () => cancel.cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
      const aborted = new Promise<never>((_, reject) => {
        signal?.addEventListener('abort', () => reject(new AbortError()), { once: true });
      });
      aborted.catch(() => undefined);
      const died = exited.then(() => {
        throw gone();
      });
      died.catch(() => undefined);
      try {
        return await withTimeout(
          Promise.race([connection.sendRequest<R>(method, params, cancel.token), aborted, died]),
          config.requestTimeoutMs,
          () => {
            cancel.cancel();
            return new Error(`${label} did not answer ${method} within ${config.requestTimeoutMs} ms`);
          },
        );
      } finally {
        signal?.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
    notify(method, params) {
      if (!alive || disposing) return;
      connection.sendNotification(method, params).catch(() => undefined);
    },
    stderrTail: tail,
    dispose() {
      disposing ??= (async () => {
        if (alive) {
          try {
            await withTimeout(
              connection.sendRequest('shutdown'),
              config.shutdownTimeoutMs,
              () => new Error('shutdown timed out'),
            );
            await connection.sendNotification('exit');
            await withTimeout(exited, config.shutdownTimeoutMs, () => new Error('exit timed out'));
          } catch {
            // Stopped below by signal.
          }
        }
        await hardStop();
      })();
      return disposing;
    },
  };
}
