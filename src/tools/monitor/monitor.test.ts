/**
 * The Monitor tool on real processes and a real WebSocket server on 127.0.0.1: a log writer
 * script whose stdout lines become events, batching while the model has not read the previous
 * event, the deadline, TaskStop, the session's end, and the WebSocket source (text, binary,
 * an oversized frame, a closed socket, refused hosts). The inbox here is the seam the loop fills
 * (`SessionInbox`): it records deliveries and says when the model "read" one (`take`); the
 * end-to-end test through `gantry -p` uses the real loop (src/cli/print/monitor.e2e.test.ts).
 */
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import type { DeliveryOptions, SessionInbox } from '../../core/index.js';
import { createSessionServices } from '../../runtime/index.js';
import { makeTestSession, runTool, runToolOk, type TestSession } from '../../testing/tool-harness.js';
import { monitorPorts } from '../monitor-ports.js';
import { createTaskStopTool } from '../tasks/task-stop.tool.js';
import { tableResolver } from '../web-fetch/network-guard.js';
import type { BatchLimits } from './event-batcher.js';
import { createMonitorTool, type MonitorOutput } from './monitor.tool.js';

/** A `SessionInbox` that records deliveries; `take(i)` plays the model reading delivery `i`. */
class RecordingInbox implements SessionInbox {
  readonly deliveries: { text: string; onTaken?: () => void; taken: boolean }[] = [];
  readonly holds: Promise<unknown>[] = [];
  private waiters: (() => void)[] = [];

  deliver(text: string, options?: DeliveryOptions): void {
    this.deliveries.push({ text, ...(options?.onTaken ? { onTaken: options.onTaken } : {}), taken: false });
    for (const w of this.waiters.splice(0)) w();
  }

  hold(until: Promise<unknown>): void {
    this.holds.push(until);
  }

  /** Resolves once there are more than `count` deliveries. */
  async waitFor(count: number): Promise<string> {
    while (this.deliveries.length <= count) await new Promise<void>((r) => this.waiters.push(r));
    return this.deliveries[count]!.text;
  }

  take(i: number): void {
    const d = this.deliveries[i]!;
    d.taken = true;
    d.onTaken?.();
  }
}

/** The lines of one event, without its wrapper. */
function eventLines(text: string): string[] {
  return text.split('\n').slice(1, -1);
}

let session: TestSession;
let inbox: RecordingInbox;
let servers: WebSocketServer[] = [];

beforeEach(async () => {
  inbox = new RecordingInbox();
  session = await makeTestSession({ services: createSessionServices({ inbox }) });
});
afterEach(async () => {
  await session.cleanup();
  for (const s of servers) {
    for (const c of s.clients) c.terminate();
    await new Promise((r) => s.close(r));
  }
  servers = [];
});

function tool(
  options: {
    allowPrivateHosts?: string[];
    batchLimits?: BatchLimits;
    resolver?: Record<string, string>;
  } = {},
) {
  return createMonitorTool({
    ports: monitorPorts({
      killGraceMs: 500,
      ...(options.allowPrivateHosts ? { webFetch: { allowPrivateHosts: options.allowPrivateHosts } } : {}),
      ...(options.resolver ? { resolver: tableResolver(options.resolver) } : {}),
    }),
    ...(options.batchLimits ? { batchLimits: options.batchLimits } : {}),
  });
}

async function start(input: Record<string, unknown>, t = tool()): Promise<MonitorOutput> {
  return (await runToolOk<MonitorOutput>(t, { description: 'test watch', ...input }, session.context)).data;
}

/** A small log writer: prints, waits for marker files, prints more (node, so no shell buffering). */
async function logWriter(script: string): Promise<string> {
  const file = path.join(session.root, 'writer.mjs');
  await writeFile(
    file,
    [
      "import { existsSync } from 'node:fs';",
      'const wait = async (f) => { while (!existsSync(f)) await new Promise((r) => setTimeout(r, 10)); };',
      script,
    ].join('\n'),
  );
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
}

const marker = (name: string) => path.join(session.root, name);

describe('Monitor: command', () => {
  it('each stdout line becomes an event; lines that arrive before the model read the last event go out together', async () => {
    const command = await logWriter(
      [
        "console.log('build started');",
        "console.error('a warning on stderr');",
        `await wait(${JSON.stringify(marker('go1'))});`,
        "console.log('error: one'); console.log('error: two'); console.log('error: three');",
        `await wait(${JSON.stringify(marker('go2'))});`,
        "console.log('build finished');",
      ].join('\n'),
    );
    const out = await start({ command, description: 'build log' });
    expect(out).toEqual({
      taskId: expect.stringMatching(/^m[0-9a-f]{6}$/),
      timeoutMs: 300_000,
      persistent: false,
    });
    expect(session.state().tasks[out.taskId]).toMatchObject({ kind: 'monitor', status: 'running' });

    const first = await inbox.waitFor(0);
    expect(first.split('\n')[0]).toBe(`<monitor-event task-id="${out.taskId}" description="build log">`);
    expect(eventLines(first)).toEqual(['build started']);
    expect(first.endsWith('</monitor-event>')).toBe(true);
    // The model has not read the first event: the next lines wait and are sent as one event.
    await writeFile(marker('go1'), '');
    await waitForFile(session.state().tasks[out.taskId]!.outputFile, 'error: three');
    expect(inbox.deliveries).toHaveLength(1);
    inbox.take(0);
    const second = await inbox.waitFor(1);
    expect(eventLines(second)).toEqual(['error: one', 'error: two', 'error: three']);
    inbox.take(1);

    await writeFile(marker('go2'), '');
    // The last line and the end of the watch (it may come in one event or two).
    let all = second;
    for (let i = 2; !all.includes('status="ended"'); i++) {
      all += `\n${await inbox.waitFor(i)}`;
      inbox.take(i);
    }
    expect(all).toContain('build finished');
    expect(all).toContain('The command exited (code 0).');
    expect(all).not.toContain('a warning on stderr');
    expect(session.state().tasks[out.taskId]).toMatchObject({ status: 'completed', exitCode: 0 });
    // stderr and stdout both reach the task's output file (for TaskOutput).
    const file = await readText(session.state().tasks[out.taskId]!.outputFile);
    expect(file).toContain('a warning on stderr');
    expect(file).toContain('error: two');
    await Promise.all(inbox.holds);
  });

  it('a source faster than the model: the waiting lines are bounded and the event says how many were dropped', async () => {
    const command = await logWriter(
      `for (let i = 1; i <= 500; i++) console.log('line ' + i + ' ' + 'x'.repeat(i === 250 ? 300 : 1));`,
    );
    const out = await start(
      { command },
      tool({ batchLimits: { maxLines: 50, maxChars: 100_000, maxLineChars: 100 } }),
    );
    await inbox.waitFor(0);
    await session.services.tasks.waitForEnd(out.taskId, 60_000);
    inbox.take(0);
    const last = await inbox.waitFor(1);
    // Every line is either in an event or counted as dropped by one; none is in two.
    const events = [inbox.deliveries[0]!.text, last];
    const kept = events.flatMap((e) => eventLines(e).filter((l) => l.startsWith('line ')));
    const dropped = events.reduce(
      (n, e) => n + Number(/\[(\d+) earlier line\(s\) dropped/.exec(e)?.[1] ?? 0),
      0,
    );
    expect(dropped).toBeGreaterThan(0);
    for (const e of events)
      expect(eventLines(e).filter((l) => l.startsWith('line ')).length).toBeLessThanOrEqual(50);
    expect(kept.length + dropped).toBe(500);
    expect(new Set(kept).size).toBe(kept.length);
    expect(kept.at(-1)).toBe('line 500 x');
    expect(last).toContain('status="ended"');
    // Line 250 (300 characters) is cut wherever it was kept, and the event says so.
    for (const e of events)
      if (eventLines(e).some((l) => l.startsWith('line 250 '))) {
        expect(e).toContain('[1 line(s) cut at 100 characters]');
        expect(e).toContain('… [209 more characters cut]');
      }
  });

  it('the deadline ends the watch and says so; the task is killed', async () => {
    const out = await start({ command: 'echo waiting; exec sleep 30', timeout_ms: 300 });
    expect(out.timeoutMs).toBe(300);
    await inbox.waitFor(0);
    inbox.take(0);
    const end = await inbox.waitFor(1);
    expect(end).toContain('status="ended"');
    expect(end).toContain('deadline of 300 ms');
    expect(session.state().tasks[out.taskId]).toMatchObject({ status: 'killed' });
  });

  it('TaskStop ends a persistent watch: the process group is stopped and no end event follows', async () => {
    const out = await start({
      command: 'while true; do echo tick; sleep 0.05; done',
      persistent: true,
      timeout_ms: 10,
    });
    expect(out).toMatchObject({ persistent: true, timeoutMs: null });
    await inbox.waitFor(0);
    const { data: stop } = await runToolOk<{ task_type: string; message: string }>(
      createTaskStopTool(),
      { task_id: out.taskId },
      session.context,
    );
    expect(stop.task_type).toBe('local_monitor');
    expect(stop.message).toContain(out.taskId);
    expect(session.state().tasks[out.taskId]).toMatchObject({ status: 'killed' });
    expect(session.services.tasks.isRunning(out.taskId)).toBe(false);
    const count = inbox.deliveries.length;
    for (let i = 0; i < count; i++) inbox.take(i);
    await Promise.all(inbox.holds);
    expect(inbox.deliveries).toHaveLength(count);
    expect(inbox.deliveries.map((d) => d.text).join('\n')).not.toContain('status="ended"');
  });

  it("the session's end stops a running watch", async () => {
    const out = await start({ command: 'exec sleep 30', persistent: true });
    await session.services.dispose();
    expect(session.state().tasks[out.taskId]).toMatchObject({ status: 'killed' });
  });

  it('a session that can no longer take events stops the watch', async () => {
    let calls = 0;
    const closed: SessionInbox = {
      deliver: () => {
        calls++;
        throw new Error('the session has no running loop to deliver to');
      },
      hold: () => undefined,
    };
    const other = await makeTestSession({ services: createSessionServices({ inbox: closed }) });
    try {
      const out = (
        await runToolOk<MonitorOutput>(
          tool(),
          { description: 'x', command: 'while true; do echo tick; sleep 0.05; done', persistent: true },
          other.context,
        )
      ).data;
      await other.services.tasks.waitForEnd(out.taskId, 60_000);
      expect(other.state().tasks[out.taskId]).toMatchObject({ status: 'killed' });
      expect(calls).toBe(1);
    } finally {
      await other.cleanup();
    }
  });
});

describe('Monitor: input errors', () => {
  it.each([
    [
      { command: 'true', ws: { url: 'wss://example.com/' } },
      /either command or ws, not both/,
      'both sources',
    ],
    [{}, /exactly one of command .* or ws/, 'no source'],
    [{ command: '   ' }, /command is empty/, 'an empty command'],
    [{ command: 'true', description: ' ' }, /description is empty/, 'an empty description'],
    [{ ws: { url: 'https://example.com/' } }, /ws:\/\/ or wss:\/\/ URL, not https:/, 'not a WebSocket URL'],
    [{ ws: { url: 'wss://user:pw@example.com/' } }, /user name or password/, 'credentials in the URL'],
    [{ ws: { url: 'not a url' } }, /not a valid URL/, 'unparseable'],
    [
      { ws: { url: 'ws://127.0.0.1:9/' } },
      /127\.0\.0\.1 belongs to this machine.*webFetch\.allowPrivateHosts/,
      'loopback',
    ],
    [{ ws: { url: 'ws://169.254.169.254/' } }, /metadata service/, 'cloud metadata'],
    [{ ws: { url: 'ws://10.1.2.3/' } }, /private network/, 'private range'],
    [{ ws: { url: 'ws://intranet/' } }, /no domain part/, 'single-label host'],
    [{ command: 'true', timeout_ms: -5 }, /timeout_ms/, 'negative timeout'],
    [{ command: 'true', extra: 1 }, /extra/, 'unknown field'],
  ])('%j → %s (%s)', async (input, message, _why) => {
    const r = await runTool(tool(), { description: 'x', ...input }, session.context);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(message);
    expect(Object.values(session.state().tasks)).toHaveLength(0);
  });

  it('a host with no inbox (gantry mcp) gets a clear error and nothing starts', async () => {
    const bare = await makeTestSession();
    try {
      const r = await runTool(tool(), { description: 'x', command: 'sleep 30' }, bare.context);
      expect(r.ok).toBe(false);
      expect(r.error).toMatch(/needs a session that can hand events to the model later/);
      expect(Object.values(bare.state().tasks)).toHaveLength(0);
    } finally {
      await bare.cleanup();
    }
  });

  it('timeout_ms above the cap is lowered to 30 minutes', async () => {
    const out = await start({ command: 'true', timeout_ms: 99_000_000 });
    expect(out.timeoutMs).toBe(1_800_000);
  });
});

async function wsServer(onConnection: (socket: WebSocket, protocol: string | undefined) => void) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 4 * 1024 * 1024 });
  servers.push(server);
  await new Promise<void>((r) => server.once('listening', () => r()));
  server.on('connection', (socket, req) => onConnection(socket, req.headers['sec-websocket-protocol']));
  return (server.address() as AddressInfo).port;
}

/** Takes every delivery until the end event; returns everything delivered. */
async function untilEnded(): Promise<string> {
  let all = '';
  for (let i = 0; !all.includes('status="ended"'); i++) {
    all += `${await inbox.waitFor(i)}\n`;
    inbox.take(i);
  }
  return all;
}

describe('Monitor: ws', () => {
  it('text frames are events, a binary frame a placeholder; a frame over 1 MiB ends the watch', async () => {
    let offered: string | undefined;
    const port = await wsServer((socket, protocol) => {
      offered = protocol;
      socket.send('deploy started');
      socket.send(Buffer.from([1, 2, 3, 4, 5]), { binary: true });
      socket.on('message', () => undefined);
      socket.send('x'.repeat(1024 * 1024 + 1));
    });
    const out = await start(
      { ws: { url: `ws://127.0.0.1:${port}/events`, protocols: ['events.v1'] }, description: 'deploys' },
      tool({ allowPrivateHosts: ['127.0.0.1'] }),
    );
    const all = await untilEnded();
    expect(offered).toBe('events.v1');
    expect(all).toContain('deploy started');
    expect(all).toContain('[binary frame, 5 bytes]');
    expect(all).toContain('larger than 1048576 bytes (1 MiB)');
    expect(all).not.toContain('xxxxxxxx');
    expect(session.state().tasks[out.taskId]).toMatchObject({ kind: 'monitor', status: 'failed' });
  });

  it('the server closing the socket ends the watch, with its code and reason', async () => {
    const port = await wsServer((socket) => {
      socket.send('one');
      socket.send('two');
      socket.close(1000, 'deploy done');
    });
    const out = await start(
      { ws: { url: `ws://127.0.0.1:${port}/` } },
      tool({ allowPrivateHosts: ['127.0.0.1'] }),
    );
    const all = await untilEnded();
    expect(all).toContain('one');
    expect(all).toContain('two');
    expect(all).toContain('closed (code 1000: deploy done)');
    expect(session.state().tasks[out.taskId]).toMatchObject({ status: 'completed' });
  });

  it('TaskStop closes the socket', async () => {
    let closedByClient: Promise<number> | undefined;
    const port = await wsServer((socket) => {
      closedByClient = new Promise((r) => socket.once('close', (code) => r(code)));
      socket.send('hello');
    });
    const out = await start(
      { ws: { url: `ws://127.0.0.1:${port}/` }, persistent: true },
      tool({ allowPrivateHosts: ['127.0.0.1'] }),
    );
    await inbox.waitFor(0);
    await runToolOk(createTaskStopTool(), { task_id: out.taskId }, session.context);
    expect(await closedByClient).toBe(1000);
    expect(session.state().tasks[out.taskId]).toMatchObject({ status: 'killed' });
  });

  it('a name that resolves to a loopback address is refused at connect time', async () => {
    let connected = false;
    const port = await wsServer(() => {
      connected = true;
    });
    const out = await start(
      { ws: { url: `ws://events.example.test:${port}/` } },
      tool({ resolver: { 'events.example.test': '127.0.0.1' } }),
    );
    const all = await untilEnded();
    expect(all).toContain('The host "events.example.test" resolves to 127.0.0.1');
    expect(connected).toBe(false);
    expect(session.state().tasks[out.taskId]).toMatchObject({ status: 'failed' });
  });
});

async function readText(file: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8').catch(() => '');
}

/** Waits until `file` contains `text` (a condition, not a duration). */
async function waitForFile(file: string, text: string): Promise<void> {
  while (!(await readText(file)).includes(text)) await new Promise((r) => setTimeout(r, 10));
}
