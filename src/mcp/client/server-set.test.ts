/**
 * A child session's server set with real servers from npm: server-memory in the parent session
 * (shared by name), server-filesystem inline (started by the set, `${VAR}` expanded, closed with
 * it, no process left), an unknown name and a bad entry reported. docs/mcp-client.md "Using it".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText } from '../../core/content.js';
import { createSessionServices } from '../../runtime/session-services.js';
import {
  type McpTestSession,
  processesMatching,
  startMcpSession,
  stdioEntry,
} from '../../testing/mcp-client-fixtures.js';
import { referenceServerCommand } from '../../testing/mcp-test-server.js';
import { makeToolContext, runTool } from '../../testing/tool-harness.js';
import { openMcpServerSet } from './server-set.js';

let parent: McpTestSession;
beforeAll(async () => {
  parent = await startMcpSession({ memory: stdioEntry(referenceServerCommand('memory')) });
});
afterAll(async () => {
  await parent?.cleanup();
});

const fsEntry = () => {
  const cmd = referenceServerCommand('filesystem');
  return { command: cmd.command, args: [...cmd.args, '${CHILD_ROOT}'] };
};

describe('openMcpServerSet', () => {
  it('shares named parent servers, starts inline ones, reports the rest, and closes only its own', async () => {
    const set = await openMcpServerSet({
      servers: ['memory', { fs: fsEntry(), broken: { type: 'ws', url: 'ws://127.0.0.1:1' } }, 'nope'],
      parent: parent.manager,
      projectRoot: parent.root,
      env: { CHILD_ROOT: parent.root, MCP_TIMEOUT: '60000' },
      sessionDir: parent.sessionDir,
    });
    try {
      expect(set.initServers()).toEqual([
        { name: 'memory', status: 'connected', source: 'dynamic' },
        { name: 'fs', status: 'connected', source: 'dynamic' },
      ]);
      expect(set.problems.map((p) => p.server)).toEqual(['broken', 'nope']);
      const names = set.tools().map((t) => t.name);
      expect(names.filter((n) => n.startsWith('mcp__memory__'))).toEqual(
        parent.manager.tools().map((t) => t.name),
      );
      expect(names).toContain('mcp__fs__list_allowed_directories');
      expect(processesMatching(parent.root).length).toBeGreaterThan(0);

      const ctx = makeToolContext({ cwd: parent.root, sessionDir: parent.sessionDir });
      const listed = await runTool(
        set.tools().find((t) => t.name === 'mcp__fs__list_allowed_directories') as never,
        {},
        ctx,
      );
      expect(listed.ok, listed.error).toBe(true);
      expect(contentText(listed.content)).toContain(parent.root);
      // The shared tool is the parent's own object: one connection for both sessions.
      const read = set.tools().find((t) => t.name === 'mcp__memory__read_graph');
      expect(read).toBe(parent.manager.tools().find((t) => t.name === 'mcp__memory__read_graph'));
    } finally {
      await set.close();
    }
    expect(processesMatching(parent.root)).toEqual([]);
    expect(parent.manager.reports()[0]?.status).toBe('connected');
    await set.close();
  });

  it('a plain {name: entry} record, closed by the services it was registered with', async () => {
    const services = createSessionServices();
    const set = await openMcpServerSet({
      servers: { fs: fsEntry() },
      projectRoot: parent.root,
      env: { CHILD_ROOT: parent.root, MCP_TIMEOUT: '60000' },
      sessionDir: parent.sessionDir,
      services,
      setName: 'child-1',
    });
    expect(set.reports().map((r) => [r.name, r.status])).toEqual([['fs', 'connected']]);
    expect(services.names()).toContain('mcp:child-1');
    expect(processesMatching(parent.root).length).toBeGreaterThan(0);
    expect(await services.dispose()).toEqual([]);
    expect(processesMatching(parent.root)).toEqual([]);
  });

  it('without a parent every name is a problem and nothing starts', async () => {
    const set = await openMcpServerSet({
      servers: ['memory'],
      projectRoot: parent.root,
      env: {},
      sessionDir: parent.sessionDir,
    });
    expect(set.tools()).toEqual([]);
    expect(set.manager).toBeUndefined();
    expect(set.problems[0]?.message).toMatch(/"memory" is not configured/);
    await set.close();
  });
});
