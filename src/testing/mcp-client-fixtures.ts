/**
 * Fixtures for the MCP client's tests and benches (only they import this): a temp project with a
 * session, a configuration built from inline server entries, a manager over it, and a process
 * counter for orphan checks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpConfiguration } from '../mcp/client/config/load.js';
import type { McpConfigScope, McpServerConfig, McpServerEntry } from '../mcp/client/config/types.js';
import {
  createMcpClientManager,
  type McpClientManager,
  type McpClientManagerOptions,
} from '../mcp/client/manager.js';
import { makeTestSession, type TestSession } from './tool-harness.js';

/** A configuration holding exactly these servers (scope `dynamic`). */
export function configurationOf(
  servers: Record<string, McpServerEntry>,
  scope: McpConfigScope = 'dynamic',
): McpConfiguration {
  return {
    servers: Object.entries(servers).map(
      ([name, entry]): McpServerConfig => ({ name, scope, file: '<test>', entry }),
    ),
    pendingApproval: [],
    disabled: [],
    problems: [],
    rawProjectEntries: new Map(),
  };
}

/** A stdio entry from a `{command, args}` pair. */
export function stdioEntry(
  cmd: { command: string; args: string[] },
  extra: Partial<McpServerEntry> = {},
): McpServerEntry {
  return { type: 'stdio', command: cmd.command, args: cmd.args, env: {}, ...extra } as McpServerEntry;
}

/** Manager options a test may set (the rest come from the session). */
export type ManagerExtras = Partial<
  Omit<McpClientManagerOptions, 'configuration' | 'sessionDir' | 'projectRoot' | 'services'>
>;

export interface McpTestSession extends TestSession {
  manager: McpClientManager;
}

/** A test session with a started manager over `servers` (registered with the session's services). */
export async function startMcpSession(
  servers: Record<string, McpServerEntry>,
  extra: ManagerExtras | ((session: TestSession) => ManagerExtras) = {},
): Promise<McpTestSession> {
  const session = await makeTestSession();
  const options = typeof extra === 'function' ? extra(session) : extra;
  const manager = createMcpClientManager({
    configuration: configurationOf(servers),
    sessionDir: session.sessionDir,
    projectRoot: session.root,
    services: session.services,
    env: { MCP_TIMEOUT: '60000' },
    baseEnv: { ...getDefaultEnvironment() },
    ...options,
  });
  await manager.start();
  return { ...session, manager };
}

/** Pids of live processes whose command line contains `marker` (zombies excluded). */
export function processesMatching(marker: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmd.includes(marker)) continue;
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state !== 'Z') out.push(Number(e));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}
