/**
 * `gantry mcp` over HTTP with two real MCP sessions (the SDK's client): a Bash analysis in one
 * session never holds up the other session's calls, and a stuck analysis is stopped at the
 * deadline and answered (docs/analysis-budget.md "Workers"). Before analysis moved off the event
 * loop, a Read in a second session waited behind one slow Bash analysis and then failed.
 *
 * - In-process server with the real tools and engine, and analysis workers whose analysis of a
 *   `#stall` command never returns (src/testing/analysis-stall-worker.ts): session B's Read
 *   completes while session A's Bash is still being analysed; A then gets the deadline's ask
 *   (denied: this client cannot be asked).
 * - The real `gantry mcp --transport http` process with a pathological command in session A:
 *   both sessions get their answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMcpServer, serveHttp } from '../mcp/server/transports.js';
import {
  GANTRY_BIN,
  makeLayout,
  type McpLayout,
  REPO,
  serverEnv,
  textOf,
} from '../mcp/server/test-support.js';
import { assembleToolPool } from '../runtime/index.js';
import {
  configureShellAnalysis,
  initShellParser,
  shellAnalysisPool,
  sourceWorker,
  stopShellAnalysisWorkers,
} from '../shell/index.js';
import { getAllBaseTools } from '../tools/index.js';
import { createGuard } from './shared/guard.js';

const STALL_WORKER = new URL('../testing/analysis-stall-worker.ts', import.meta.url);
const DEADLINE_MS = 1500;

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'gantry-analysis-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('gantry mcp: one session’s Bash analysis does not hold up another session', () => {
  let layout: McpLayout;
  let server: HttpMcpServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    layout = await makeLayout('gantry-mcp-analysis-');
    await writeFile(path.join(layout.project, 'notes.txt'), 'session B reads this\n');
    await initShellParser();
    const worker = sourceWorker(STALL_WORKER);
    if (!worker) throw new Error('the tests run from the sources');
    configureShellAnalysis({ workers: { worker, size: 1, graceMs: 100 }, deadlineMs: DEADLINE_MS });
    // the worker is up before the test (a request before that runs in the server's own thread)
    expect(await shellAnalysisPool()?.whenReady()).toBe(true);
    const guard = createGuard({ cwd: layout.project, home: layout.home });
    const tools = assembleToolPool({
      builtIn: await getAllBaseTools(),
      isDenied: (name) => guard.engine.isToolDenied(name),
    }).callable;
    server = await serveHttp(
      { tools, cwd: layout.project, mode: guard.mode, decide: guard.engine.decider },
      0,
    );
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await server?.close();
    await stopShellAnalysisWorkers();
    configureShellAnalysis({ deadlineMs: 1000 });
    await layout?.cleanup();
  });

  it('session B’s Read completes while session A’s Bash is being analysed; A then gets the deadline’s answer', async () => {
    const a = await connect(server.url);
    const b = await connect(server.url);
    clients.push(a, b);
    const pool = shellAnalysisPool();
    if (!pool) throw new Error('analysis workers are on');
    const before = pool.stats.dispatched;
    const order: string[] = [];
    // A long command (over what the event loop analyses itself) whose analysis never returns.
    const command = `#stall\n${'# padding to make the command long\n'.repeat(200)}ls`;
    const bash = a.callTool({ name: 'Bash', arguments: { command } }).then((r) => {
      order.push('A');
      return r;
    });
    for (let i = 0; i < 400 && pool.stats.dispatched === before; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(pool.stats.dispatched).toBe(before + 1); // A's analysis is running in the worker

    const read = await b.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.project, 'notes.txt') },
    });
    order.push('B');
    expect(read.isError).toBe(false);
    expect(textOf(read)).toContain('session B reads this');
    expect(order).toEqual(['B']);

    const denied = await bash;
    expect(order).toEqual(['B', 'A']);
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain(`analysis did not finish within ${DEADLINE_MS} ms`);
    expect(pool.stats.terminated).toBe(1);

    // the pool replaced the stopped worker: A's next command is analysed and runs
    const next = await a.callTool({ name: 'Bash', arguments: { command: 'echo still-serving' } });
    expect(textOf(next)).toContain('still-serving');
  });
});

describe('gantry mcp --transport http (real process): a pathological command and a Read in two sessions', () => {
  let layout: McpLayout;
  let child: ChildProcess;
  let url: string;
  let stderr = '';

  beforeAll(async () => {
    layout = await makeLayout('gantry-mcp-analysis-');
    await writeFile(path.join(layout.project, 'notes.txt'), 'read over http\n');
    child = spawn(
      process.execPath,
      [GANTRY_BIN, 'mcp', '--transport', 'http', '--port', '0', '--cwd', layout.project],
      {
        cwd: REPO,
        env: serverEnv(layout.home),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const m = /gantry mcp listening on (\S+)/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
      child.once('exit', (code) =>
        reject(new Error(`gantry mcp exited (${code}) before listening:\n${stderr}`)),
      );
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await layout?.cleanup();
  });

  it('the built server finds its bundled analysis worker and says so', () => {
    // bin/gantry.js runs the bundle (dist/fast/), whose worker is dist/fast/gantry-analysis-worker.mjs
    expect(stderr).toMatch(/gantry mcp: Bash analysis in \d+ worker threads?, deadline 1000 ms/);
  });

  it('both sessions get their answers: the Read succeeds, the unanalysable Bash is refused with the reason', async () => {
    const a = await connect(url);
    const b = await connect(url);
    try {
      const command = `shopt -s extglob\nls @(x)${'@(x)'.repeat(16_000)}`;
      const [bash, read] = await Promise.all([
        a.callTool({ name: 'Bash', arguments: { command } }),
        b.callTool({ name: 'Read', arguments: { file_path: path.join(layout.project, 'notes.txt') } }),
      ]);
      expect(read.isError).toBe(false);
      expect(textOf(read)).toContain('read over http');
      expect(bash.isError).toBe(true);
      expect(textOf(bash)).toMatch(/stopped early|in every mode/);
    } finally {
      await Promise.all([a.close(), b.close()].map((p) => p.catch(() => undefined)));
    }
  });
});
