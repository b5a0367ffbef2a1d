/**
 * One MCP session = one tool runtime (gantry-mcp-server.ts): what one call leaves in the session
 * (files read, the shell's cwd) is there for the next call, and what the MCP session has no use
 * for (per-call decision records) does not pile up. Real tools and the real permission engine,
 * in process over the SDK's linked in-memory transport.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine, loadSettings } from '../../permissions/index.js';
import { allowAllDecider, type ToolRuntime } from '../../runtime/index.js';
import { waitUntil } from '../../testing/deferred.js';
import { makeTempDir } from '../../testing/runtime-fixtures.js';
import { getAllBaseTools } from '../../tools/index.js';
import { createGantryMcpServer } from './gantry-mcp-server.js';
import { textOf } from './test-support.js';

describe('an MCP session keeps its runtime state across calls', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let client: Client;
  let runtime: ToolRuntime;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('gantry-mcp-session-'));
    const project = path.join(dir, 'project');
    await mkdir(path.join(project, 'src'), { recursive: true });
    await writeFile(path.join(project, 'a.txt'), 'alpha\n');
    await writeFile(path.join(project, 'b.txt'), 'beta\n');
    const settings = loadSettings({ projectRoot: project, home: path.join(dir, 'home') });
    const engine = createPermissionEngine({ settings });
    const built = createGantryMcpServer({
      tools: await getAllBaseTools({ env: {} }),
      cwd: project,
      mode: 'acceptEdits',
      decide: engine.decider,
      sessionDir: path.join(dir, 'session'),
    });
    runtime = built.runtime;
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await built.server.connect(serverSide);
    client = new Client({ name: 'session-test', version: '1' });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    await cleanup?.();
  });

  it('a file read in one call can be edited in the next; an unread one cannot', async () => {
    const a = path.join(dir, 'project', 'a.txt');
    const b = path.join(dir, 'project', 'b.txt');
    expect((await client.callTool({ name: 'Read', arguments: { file_path: a } })).isError).toBe(false);
    const edited = await client.callTool({
      name: 'Edit',
      arguments: { file_path: a, old_string: 'alpha', new_string: 'ALPHA' },
    });
    expect(edited.isError).toBe(false);
    expect(await readFile(a, 'utf8')).toBe('ALPHA\n');
    const unread = await client.callTool({
      name: 'Edit',
      arguments: { file_path: b, old_string: 'beta', new_string: 'BETA' },
    });
    expect(unread.isError).toBe(true);
    expect(textOf(unread).toLowerCase()).toContain('read');
    expect(await readFile(b, 'utf8')).toBe('beta\n');
  });

  it('a `cd` in one Bash call is the working directory of the next', async () => {
    const first = await client.callTool({ name: 'Bash', arguments: { command: 'cd src && pwd' } });
    expect(textOf(first).trim()).toBe(path.join(dir, 'project', 'src'));
    const second = await client.callTool({ name: 'Bash', arguments: { command: 'pwd' } });
    expect(textOf(second).trim()).toBe(path.join(dir, 'project', 'src'));
  });

  it('no per-call state stays behind in a long session: each call leaves the session gate idle', async () => {
    const a = path.join(dir, 'project', 'a.txt');
    for (let i = 0; i < 5; i++) {
      await client.callTool({ name: 'Read', arguments: { file_path: a } });
      expect([runtime.gate.running, runtime.gate.waiting]).toEqual([0, 0]);
    }
    expect(Object.keys(runtime.context)).not.toContain('toolDecisions');
  });

  it('finished turns are not kept alive by the session context (no chain of turns in a long session)', async () => {
    // Each call is a turn with its own abort controller; the session context must not keep the
    // last one (its listener holds the Turn, whose options hold the context before it, and so on).
    const a = path.join(dir, 'project', 'a.txt');
    const before = runtime.context.abortController;
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'Read', arguments: { file_path: a } });
    expect(runtime.context.abortController).toBe(before);
    expect(runtime.context.abortController.signal.aborted).toBe(false);
  });
});

describe('an MCP session’s end', () => {
  it('disposes its services: a background command it started is stopped', async () => {
    const { dir, cleanup } = await makeTempDir('gantry-mcp-close-');
    try {
      const project = path.join(dir, 'project');
      await mkdir(project, { recursive: true });
      const built = createGantryMcpServer({
        tools: await getAllBaseTools({ env: {} }),
        cwd: project,
        mode: 'bypassPermissions',
        decide: allowAllDecider,
        sessionDir: path.join(dir, 'session'),
      });
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      await built.server.connect(serverSide);
      const client = new Client({ name: 'close-test', version: '1' });
      await client.connect(clientSide);
      await client.callTool({ name: 'Bash', arguments: { command: 'sleep 300', run_in_background: true } });
      const [id] = built.runtime.services.tasks.runningIds();
      expect(id).toBeDefined();
      await client.close();
      await waitUntil(() => built.runtime.services.disposed, 'the session’s services were disposed on close');
      await built.runtime.services.dispose();
      expect(built.runtime.services.tasks.isRunning(id as string)).toBe(false);
    } finally {
      await cleanup();
    }
  });
});
