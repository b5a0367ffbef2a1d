/**
 * `gantry mcp --transport http` as a real process: it prints its URL on stderr, serves Streamable
 * HTTP on 127.0.0.1 to the SDK's client (StreamableHTTPClientTransport), runs a real Read through
 * the permission engine, and exits cleanly on SIGTERM even with a client still connected.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GANTRY_BIN, makeLayout, type McpLayout, REPO, serverEnv, textOf } from './test-support.js';

/** Resolves with the URL from `gantry mcp listening on <url>`; rejects if the process exits first. */
function listeningUrl(child: ChildProcess, stderr: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      stderr.text += chunk.toString('utf8');
      const m = /gantry mcp listening on (\S+)/.exec(stderr.text);
      if (m?.[1]) resolve(m[1]);
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`gantry mcp exited (${code ?? signal}) before listening:\n${stderr.text}`)),
    );
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('gantry mcp --transport http (real process, SDK client)', () => {
  let layout: McpLayout;
  let child: ChildProcess;
  const stderr = { text: '' };
  let url: string;

  beforeAll(async () => {
    layout = await makeLayout();
    await writeFile(path.join(layout.project, 'hello.txt'), 'hello over http\n');
    child = spawn(
      process.execPath,
      [GANTRY_BIN, 'mcp', '--transport', 'http', '--port', '0', '--cwd', layout.project],
      { cwd: REPO, env: serverEnv(layout.home), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    url = await listeningUrl(child, stderr);
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    await layout?.cleanup();
  });

  it('prints a loopback URL on stderr', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('serves a Read through the permission engine, then exits 0 on SIGTERM with the client still connected', async () => {
    const client = new Client({ name: 'gantry-http-test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/\S/);

    const ok = await client.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.project, 'hello.txt') },
    });
    expect(ok.isError).toBe(false);
    expect(textOf(ok)).toContain('hello over http');
    const refused = await client.callTool({
      name: 'Write',
      arguments: { file_path: path.join(layout.project, '.env'), content: 'x' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('protected path');

    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    await client.close().catch(() => undefined);
  });
});
