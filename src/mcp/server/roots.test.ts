/**
 * MCP roots → additional working directories, in process
 * over the SDK's linked in-memory transport, with controlled promises for the client's answers:
 * - a call made before the client has answered roots/list waits for the answer (the roots apply
 *   from the first call, whatever the timing);
 * - `notifications/roots/list_changed` replaces the roots-derived directories (a removed root
 *   stops counting) and keeps the configured ones;
 * - a client without the roots capability is never asked.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema, type Root } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, type PermissionDecider } from '../../core/index.js';
import { deferred } from '../../testing/deferred.js';
import { createGantryMcpServer } from './gantry-mcp-server.js';

const Peek = buildTool({
  name: 'Peek',
  description: 'Reports the directory it was given.',
  inputSchema: z.object({ dir: z.string() }),
  isReadOnly: () => true,
  async *call(input: { dir: string }) {
    return { data: `peeked ${input.dir}` };
  },
});

/** Allows `Peek` of a directory that is among the working directories; asks otherwise. */
const decide: PermissionDecider = async (req) => {
  const dir = (req.input as { dir: string }).dir;
  if (dir === req.cwd || req.additionalDirectories.includes(dir))
    return {
      behavior: 'allow',
      reason: { type: 'working-directory', message: `${dir} is a working directory` },
    };
  return {
    behavior: 'ask',
    reason: { type: 'working-directory', message: `${dir} is outside` },
    suggestions: [],
  };
};

async function connect(withRoots: boolean, answerRoots: () => Promise<Root[]>) {
  const { server } = createGantryMcpServer({
    tools: [Peek],
    cwd: '/project',
    additionalDirectories: ['/configured'],
    decide,
  });
  const client = new Client(
    { name: 'roots-test', version: '1' },
    { capabilities: withRoots ? { roots: { listChanged: true } } : {} },
  );
  let rootsRequests = 0;
  if (withRoots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      rootsRequests++;
      return { roots: await answerRoots() };
    });
  }
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const peek = async (dir: string) => {
    const r = await client.callTool({ name: 'Peek', arguments: { dir } });
    return r.isError === true ? 'refused' : 'ran';
  };
  return { client, peek, rootsRequests: () => rootsRequests };
}

describe('MCP roots as additional working directories', () => {
  it('a call sent before the roots/list answer waits for it, then runs with the root', async () => {
    const answer = deferred<Root[]>();
    const { client, peek, rootsRequests } = await connect(true, () => answer.promise);
    const call = peek('/from-root');
    // The call is pending behind the unanswered roots/list; answer it now.
    await Promise.resolve();
    answer.resolve([{ uri: 'file:///from-root', name: 'r' }]);
    expect(await call).toBe('ran');
    expect(rootsRequests()).toBe(1);
    await client.close();
  });

  it('roots/list_changed replaces the roots-derived directories and keeps the configured ones', async () => {
    let roots: Root[] = [{ uri: 'file:///first', name: 'first' }];
    const { client, peek, rootsRequests } = await connect(true, async () => roots);
    expect(await peek('/first')).toBe('ran');
    roots = [{ uri: 'file:///second', name: 'second' }];
    await client.sendRootsListChanged();
    // The next call waits for the refreshed list.
    expect(await peek('/second')).toBe('ran');
    expect(await peek('/first')).toBe('refused');
    expect(await peek('/configured')).toBe('ran');
    expect(rootsRequests()).toBe(2);
    await client.close();
  });

  it.each([
    [
      [{ uri: 'https://example.invalid/repo', name: 'web' }],
      '/repo',
      'only file:// roots become directories',
    ],
    [[], '/elsewhere', 'no roots: nothing added'],
  ])('roots %j → Peek %s refused (%s)', async (roots, dir, _why) => {
    const { client, peek } = await connect(true, async () => roots);
    expect(await peek(dir)).toBe('refused');
    await client.close();
  });

  it('a client without the roots capability is never asked for roots', async () => {
    const { client, peek, rootsRequests } = await connect(false, async () => []);
    expect(await peek('/project')).toBe('ran');
    expect(await peek('/configured')).toBe('ran');
    expect(rootsRequests()).toBe(0);
    await client.close();
  });
});
