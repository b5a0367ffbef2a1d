/**
 * `gantry mcp` over stdio ends with its session: the SDK client's own `close()`, end of input, and
 * SIGTERM / SIGINT / SIGHUP each end a real server process with exit 0 (and SIGKILL ends it) while a foreground command
 * and a background task are running (the task also started a process in a new session), and
 * afterwards no process of any is left (counted by a marker in their command lines, wherever they
 * were reparented).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { killMarked, processesWithMarker, uniqueSleepMarker, waitFor } from '../../testing/processes.js';
import {
  connectGantryStdio,
  GANTRY_BIN,
  makeLayout,
  type McpLayout,
  REPO,
  serverEnv,
} from './test-support.js';

let layout: McpLayout | undefined;
const markers: string[] = [];
afterEach(async () => {
  for (const m of markers.splice(0)) killMarked(m);
  await layout?.cleanup();
  layout = undefined;
});

/**
 * A foreground command that never ends by itself and a background task that also moved a process
 * into a new session (`setsid`: out of its process group), each with its own marker.
 */
function workload(): { foreground: string; background: string; markers: [string, string, string] } {
  const fg = uniqueSleepMarker();
  const bg = uniqueSleepMarker();
  const escaped = uniqueSleepMarker();
  markers.push(fg, bg, escaped);
  return {
    foreground: `tail -f /dev/null; echo ${fg}`,
    background: `setsid sleep ${escaped} </dev/null >/dev/null 2>&1 & sleep ${bg}`,
    markers: [fg, bg, escaped],
  };
}

const running = (ms: readonly string[]) => ms.every((m) => processesWithMarker(m).length > 0);
const gone = (ms: readonly string[]) => ms.every((m) => processesWithMarker(m).length === 0);

describe('stdio gantry mcp ends cleanly with its client', () => {
  it("the SDK client's close(): running calls aborted, their processes and the background task stopped", async () => {
    layout = await makeLayout();
    const { client, transport } = await connectGantryStdio(['--cwd', layout.project, '--on-ask', 'allow'], {
      home: layout.home,
    });
    const w = workload();
    await client.callTool({ name: 'Bash', arguments: { command: w.background, run_in_background: true } });
    const foreground = client
      .callTool({ name: 'Bash', arguments: { command: w.foreground } }, undefined, { timeout: 60_000 })
      .catch((e: unknown) => e);
    expect(await waitFor(() => running(w.markers), 20_000)).toBe(true);
    const pid = transport.pid as number;
    await (client as Client).close();
    await foreground;
    expect(await waitFor(() => gone(w.markers), 10_000)).toBe(true);
    expect(await waitFor(() => !alive(pid), 10_000)).toBe(true);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A server process driven with raw JSON-RPC lines, so the test owns its stdin and sees its exit code. */
async function rawServer(cwd: string, home: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [GANTRY_BIN, 'mcp', '--cwd', cwd, '--on-ask', 'allow'],
    {
      cwd: REPO,
      env: serverEnv(home),
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ids = new Set<unknown>();
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      ids.add((JSON.parse(pending.slice(0, nl)) as { id?: unknown }).id);
      pending = pending.slice(nl + 1);
    }
  });
  const send = (m: unknown) => child.stdin?.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const call = (id: number, args: Record<string, unknown>) =>
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'Bash', arguments: args } });
  return { child, exit, ids, call };
}

describe.each([
  ['end of input', undefined],
  ['SIGTERM', 'SIGTERM'],
  ['SIGINT', 'SIGINT'],
  ['SIGHUP', 'SIGHUP'],
] as const)('stdio gantry mcp on %s', (_name, signal) => {
  it('exits 0 and leaves no process of its foreground command or background task', async () => {
    layout = await makeLayout();
    const server = await rawServer(layout.project, layout.home);
    const w = workload();
    server.call(1, { command: w.background, run_in_background: true });
    server.call(2, { command: w.foreground });
    expect(await waitFor(() => running(w.markers), 20_000)).toBe(true);
    if (signal) server.child.kill(signal);
    else server.child.stdin?.end();
    expect(await server.exit).toEqual({ code: 0, signal: null });
    expect(gone(w.markers)).toBe(true);
  });
});

describe('stdio gantry mcp SIGKILLed (no handler runs)', () => {
  it('its foreground command and background task end with it (the process-group watchdog)', async () => {
    layout = await makeLayout();
    const server = await rawServer(layout.project, layout.home);
    const w = workload();
    server.call(1, { command: w.background, run_in_background: true });
    server.call(2, { command: w.foreground });
    expect(await waitFor(() => running(w.markers), 20_000)).toBe(true);
    server.child.kill('SIGKILL');
    expect(await server.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await waitFor(() => gone(w.markers), 10_000)).toBe(true);
  });
});
