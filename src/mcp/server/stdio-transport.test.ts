/**
 * The stdio transport's answers to bad input, on real streams: every malformed, invalid or
 * oversized message gets a JSON-RPC error reply, and the session goes on (the next message is
 * still delivered). Then the same through a real `gantry mcp` process with a 50 MB request.
 */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { GantryStdioTransport, idFromPrefix, isPlainRequest } from './stdio-transport.js';
import { GANTRY_BIN, makeLayout, type McpLayout, REPO, serverEnv } from './test-support.js';

interface Harness {
  input: PassThrough;
  replies: unknown[];
  delivered: JSONRPCMessage[];
  closed: () => boolean;
  transport: GantryStdioTransport;
}

async function harness(maxMessageBytes?: number): Promise<Harness> {
  const input = new PassThrough();
  const output = new PassThrough();
  const replies: unknown[] = [];
  let pending = '';
  output.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      replies.push(JSON.parse(pending.slice(0, nl)));
      pending = pending.slice(nl + 1);
    }
  });
  const transport = new GantryStdioTransport({
    input,
    output,
    ...(maxMessageBytes ? { maxMessageBytes } : {}),
  });
  const delivered: JSONRPCMessage[] = [];
  let closed = false;
  transport.onmessage = (m) => delivered.push(m);
  transport.onclose = () => {
    closed = true;
  };
  await transport.start();
  return { input, replies, delivered, closed: () => closed, transport };
}

const tick = () => new Promise((r) => setImmediate(r));
const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

describe('GantryStdioTransport', () => {
  it.each([
    ['not json', null, -32700, 'malformed JSON: parse error'],
    ['{"id": 7, "method": "ping"}', 7, -32600, 'no "jsonrpc": invalid request, with its id'],
    ['[]', null, -32600, 'a batch (array): invalid request'],
    ['42', null, -32600, 'a bare number: invalid request'],
    ['{"jsonrpc":"2.0","id":{},"method":"ping"}', null, -32600, 'an object id: invalid request, id null'],
    [
      '{"jsonrpc":"2.0","id":3,"method":"tools/call"}',
      3,
      -32602,
      'tools/call without params: invalid params',
    ],
    [
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}}',
      4,
      -32602,
      'tools/call without a name: invalid params',
    ],
    [
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"Read","arguments":[1]}}',
      5,
      -32602,
      'tools/call with an array as arguments: invalid params (the plain-call shortcut does not take it)',
    ],
    [
      '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":7}}',
      6,
      -32602,
      'tools/call with a number as name: invalid params',
    ],
  ])('%s → %s / %i (%s), and the next message still arrives', async (line, id, code, _why) => {
    const h = await harness();
    h.input.write(`${line}\n${ping(99)}`);
    await tick();
    expect(h.replies).toEqual([{ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } }]);
    expect(h.delivered).toEqual([{ jsonrpc: '2.0', id: 99, method: 'ping' }]);
    expect(h.closed()).toBe(false);
  });

  it.each([
    [{ name: 'Read', arguments: { file_path: '/x' } }, 'name and arguments'],
    [{ name: 'Glob' }, 'a name alone'],
    [{ name: 'Read', arguments: {}, _meta: { progressToken: 1 } }, 'with _meta (checked by the schema here)'],
  ])('a well-formed tools/call is delivered as sent: %j (%s)', async (params, _why) => {
    const h = await harness();
    const message = { jsonrpc: '2.0', id: 21, method: 'tools/call', params };
    h.input.write(`${JSON.stringify(message)}\n`);
    await tick();
    expect(h.replies).toEqual([]);
    expect(h.delivered).toEqual([message]);
  });

  it('an oversized message is skipped as it streams in, answered with its id, and the session goes on', async () => {
    const h = await harness(1024);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 12,
      method: 'tools/call',
      params: { name: 'Read', arguments: { file_path: 'x'.repeat(10_000) } },
    });
    // Arrives in pieces, as a pipe delivers it.
    for (let i = 0; i < big.length; i += 700) h.input.write(big.slice(i, i + 700));
    h.input.write(`\n${ping(13)}`);
    await tick();
    expect(h.replies).toEqual([
      {
        jsonrpc: '2.0',
        id: 12,
        error: { code: -32600, message: expect.stringMatching(/too large.*over the 1024-byte limit/) },
      },
    ]);
    expect(h.delivered).toEqual([{ jsonrpc: '2.0', id: 13, method: 'ping' }]);
  });

  it('end of input closes the transport (onclose fires once), delivering a last line without newline', async () => {
    const h = await harness();
    h.input.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await tick();
    await tick();
    expect(h.delivered).toHaveLength(1);
    expect(h.closed()).toBe(true);
  });

  it.each([
    ['{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{', 5, 'id before params'],
    ['{"jsonrpc":"2.0","id":"a\\"b","method":"x"', 'a"b', 'string id with an escape'],
    [
      '{"jsonrpc":"2.0","method":"tools/call","params":{"id":9',
      null,
      'an id inside params is not the request id',
    ],
  ])('idFromPrefix(%s) = %j (%s)', (prefix, id, _why) => {
    expect(idFromPrefix(prefix)).toEqual(id);
  });
});

describe('gantry mcp (real process): a 50 MB request', () => {
  let layout: McpLayout | undefined;
  afterEach(async () => {
    await layout?.cleanup();
  });

  it('gets an error reply, and the session answers the next request', async () => {
    layout = await makeLayout();
    const child = spawn(process.execPath, [GANTRY_BIN, 'mcp', '--cwd', layout.project], {
      cwd: REPO,
      env: serverEnv(layout.home),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const replies: { id: unknown; error?: { code: number }; result?: unknown }[] = [];
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
        replies.push(JSON.parse(pending.slice(0, nl)));
        pending = pending.slice(nl + 1);
      }
    });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'Read', arguments: { file_path: 'x'.repeat(50 << 20) } },
    });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const until = Date.now() + 60_000;
    while (replies.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    expect(await exit).toBe(0);
    expect(replies.find((r) => r.id === 1)?.error?.code).toBe(-32600);
    expect(replies.find((r) => r.id === 2)?.result).toMatchObject({ tools: expect.any(Array) });
  });
});

describe('isPlainRequest: the envelope shortcut accepts only what the JSON-RPC schema accepts', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'Read' } }, true, 'a plain request'],
    [{ jsonrpc: '2.0', id: 'a', method: 'ping' }, true, 'a string id, no params'],
    [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, false, 'a fractional id (the schema wants an integer)'],
    [{ jsonrpc: '2.0', id: 2 ** 60, method: 'ping' }, false, 'an id past the safe integers'],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, false, 'a null id'],
    [{ jsonrpc: '1.0', id: 1, method: 'ping' }, false, 'another JSON-RPC version'],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 }, false, 'an extra key (the schema is strict)'],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', params: null }, false, 'null params'],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', params: [] }, false, 'array params'],
    [
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: {} } } },
      false,
      '_meta (the schema checks it)',
    ],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, false, 'a notification (no id)'],
    [{ jsonrpc: '2.0', id: 1, result: {} }, false, 'a response'],
    [JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{}}'), false, 'an own __proto__ key'],
  ])('%j → %s (%s)', (value, plain, _why) => {
    expect(isPlainRequest(value as Record<string, unknown>)).toBe(plain);
    // Whatever the shortcut takes, the schema takes too.
    if (plain) expect(JSONRPCMessageSchema.safeParse(value).success).toBe(true);
  });
});
