/**
 * Helpers for the tests and the bench of `gantry mcp` as a real process (only tests and benches
 * import this): the path of the `gantry` command, a temp layout (project, a directory outside it,
 * an empty HOME so the user's own settings never leak in), an SDK client over stdio, and result text.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** Repository root (holds bin/gantry.js and node_modules). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The `gantry` command's entry point (runs the built dist/, rebuilt first when the sources changed). */
export const GANTRY_BIN = path.join(REPO, 'bin', 'gantry.js');

export interface McpLayout {
  root: string;
  /** The project (`--cwd`). */
  project: string;
  /** A directory outside the project. */
  outside: string;
  /** HOME of the server process (empty: no user settings, no trusted folders). */
  home: string;
  cleanup(): Promise<void>;
}

/** A fresh temp layout (all real directories; the caller fills them). */
export async function makeLayout(prefix = 'gantry-mcp-'): Promise<McpLayout> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  const layout = {
    root,
    project: path.join(root, 'project'),
    outside: path.join(root, 'outside'),
    home: path.join(root, 'home'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  for (const d of [layout.project, layout.outside, layout.home]) await mkdir(d, { recursive: true });
  return layout;
}

/** The environment a spawned server gets: the SDK's safe default set, with HOME replaced. */
export function serverEnv(home: string): Record<string, string> {
  return { ...getDefaultEnvironment(), HOME: home };
}

/**
 * Spawns `node bin/gantry.js mcp …args` and connects an SDK client over stdio.
 * `client.close()` ends the process (stdin closes, the stdio session ends, the process exits).
 * `stderr()` is what the server printed on stderr so far (settings problems; for failure messages).
 */
export async function connectGantryStdio(
  args: string[],
  options: { home: string; capabilities?: ClientCapabilities; setup?: (client: Client) => void },
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const client = new Client(
    { name: 'gantry-test', version: '1' },
    { capabilities: options.capabilities ?? {} },
  );
  options.setup?.(client);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [GANTRY_BIN, 'mcp', ...args],
    env: serverEnv(options.home),
    cwd: REPO,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** The text blocks of a tools/call result, joined by newlines. */
export function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return content
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');
}
