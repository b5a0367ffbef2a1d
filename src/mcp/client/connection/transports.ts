/**
 * Building the SDK transport for one server entry:
 * - stdio: `StdioClientTransport` with stderr piped into the server's log; the process gets the
 *   SDK's safe default environment, `CLAUDE_PROJECT_DIR` and `GANTRY_PROJECT_DIR` (the project
 *   root; Claude Code documents the first for stdio servers), then the entry's `env`. When a
 *   sandbox is given, the spawn spec is wrapped by it first (bubblewrap, the same filesystem and
 *   network policy as Bash);
 * - http: `StreamableHTTPClientTransport` with the entry's headers on every request;
 * - sse: `SSEClientTransport` with the headers on the POSTs and the event stream.
 */
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ExchangeTransport } from './sdk-transport.js';
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SandboxCallInfo, SpawnSpec } from '../../../core/spawn.js';
import type { McpServerEntry, StdioServerEntry } from '../config/types.js';
import type { StderrLog } from './stderr-log.js';

/** The part of the OS sandbox a stdio server needs (`SandboxManager` satisfies it). */
export interface StdioSandbox {
  wrap(spec: SpawnSpec, info: SandboxCallInfo): Promise<{ spec: SpawnSpec; cleanup: () => void }>;
}

export interface BuiltTransport {
  transport: Transport;
  /** The stdio child's pid once started (undefined for remote servers). */
  pid(): number | undefined;
  /** Runs after the transport closed (sandbox bookkeeping). */
  cleanup(): void;
  /** What was spawned (stdio), for reports. */
  commandLine?: string;
}

export interface TransportOptions {
  projectRoot: string;
  log?: StderrLog;
  /** Wrap stdio servers in this sandbox. */
  sandbox?: StdioSandbox;
  /** Environment of the Gantry process the default set is taken from (tests). */
  baseEnv?: Record<string, string>;
}

function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

async function stdioTransport(entry: StdioServerEntry, options: TransportOptions): Promise<BuiltTransport> {
  const env: Record<string, string> = {
    ...(options.baseEnv ?? getDefaultEnvironment()),
    CLAUDE_PROJECT_DIR: options.projectRoot,
    GANTRY_PROJECT_DIR: options.projectRoot,
    ...entry.env,
  };
  let spec: SpawnSpec = {
    file: entry.command,
    args: entry.args,
    cwd: entry.cwd ?? options.projectRoot,
    env,
    harnessWritablePaths: [],
  };
  const commandLine = [entry.command, ...entry.args].map(quote).join(' ');
  let cleanup = (): void => undefined;
  if (options.sandbox) {
    const wrapped = await options.sandbox.wrap(spec, {
      command: commandLine,
      dangerouslyDisableSandbox: false,
      background: true,
    });
    spec = wrapped.spec;
    cleanup = wrapped.cleanup;
  }
  const transport = new StdioClientTransport({
    command: spec.file,
    args: spec.args,
    env: spec.env,
    cwd: spec.cwd,
    stderr: 'pipe',
  });
  options.log?.attach(transport.stderr as Readable | null);
  return { transport, pid: () => transport.pid ?? undefined, cleanup, commandLine };
}

/** Builds the transport for `entry` (stdio processes start when the client connects). */
export async function buildTransport(
  entry: McpServerEntry,
  options: TransportOptions,
): Promise<BuiltTransport> {
  if (entry.type === 'stdio') return stdioTransport(entry, options);
  if (entry.type === 'sdk')
    return {
      transport: new ExchangeTransport(entry.exchange),
      pid: () => undefined,
      cleanup: () => undefined,
    };
  const url = new URL(entry.url);
  const requestInit: RequestInit = { headers: entry.headers };
  const transport =
    entry.type === 'http'
      ? new StreamableHTTPClientTransport(url, { requestInit })
      : new SSEClientTransport(url, {
          requestInit,
          eventSourceInit: {
            fetch: (input, init) =>
              fetch(input, {
                ...init,
                headers: { ...(init?.headers as Record<string, string>), ...entry.headers },
              }),
          },
        });
  return { transport, pid: () => undefined, cleanup: () => undefined };
}
