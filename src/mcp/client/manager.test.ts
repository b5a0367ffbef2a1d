/**
 * The MCP client against a real stdio server (src/testing/mcp-test-server.ts, run through tsx):
 * tools listed and adapted, calls, errors, images, list_changed, a crash mid-call, a server that
 * never starts, output floods, elicitation, progress, cancellation, roots, and no process left
 * behind. docs/mcp-client.md.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText } from '../../core/content.js';
import { makeToolContext, runTool } from '../../testing/tool-harness.js';
import { mcpTestServerCommand } from '../../testing/mcp-test-server.js';
import {
  type McpTestSession,
  processesMatching,
  startMcpSession,
  stdioEntry,
} from '../../testing/mcp-client-fixtures.js';
import { allowAllDecider } from '../../runtime/deciders.js';
import { createToolRuntime } from '../../runtime/index.js';
import { toolUse } from '../../testing/runtime-fixtures.js';
import type { McpToolOutput } from './tools/results.js';

const marker = `srv-${randomUUID()}`;
let s: McpTestSession;
const answers: { message: string }[] = [];

beforeAll(async () => {
  s = await startMcpSession(
    { test: stdioEntry(mcpTestServerCommand({ toolCount: 20, name: marker })) },
    {
      elicit: async (request) => {
        answers.push({ message: request.message });
        return { action: 'accept', content: { answer: 'Ada' } };
      },
      roots: () => [s.root, path.join(s.root, 'extra')],
      env: { MCP_TIMEOUT: '60000', MAX_MCP_OUTPUT_TOKENS: '5000' },
    },
  );
});
afterAll(async () => {
  await s?.cleanup();
});

const tool = (name: string) => {
  const t = s.manager.tools().find((x) => x.name === `mcp__test__${name}`);
  if (!t)
    throw new Error(
      `no tool ${name}: ${s.manager
        .tools()
        .map((x) => x.name)
        .join(', ')}`,
    );
  return t;
};
const ctx = () =>
  makeToolContext({ cwd: s.root, sessionDir: s.sessionDir, services: s.services, tools: s.manager.tools() });

describe('MCP client over stdio', () => {
  it('connects, reports the server and adapts every tool with its hints', () => {
    const [report] = s.manager.reports();
    expect(report).toMatchObject({
      name: 'test',
      status: 'connected',
      source: 'dynamic',
      transport: 'stdio',
    });
    expect(report?.toolCount).toBe(20 + 18);
    expect(s.manager.initServers()).toEqual([{ name: 'test', status: 'connected', source: 'dynamic' }]);
    const names = s.manager.tools().map((t) => t.name);
    expect(names).toEqual([...names].sort());
    const get = tool('get_issue');
    expect(get.isMcp).toBe(true);
    expect(get.mcpInfo).toEqual({ serverName: 'test', toolName: 'get_issue' });
    expect(get.isReadOnly({})).toBe(true);
    expect(get.isConcurrencySafe({})).toBe(true);
    const del = tool('delete_issue');
    expect(del.isReadOnly({})).toBe(false);
    expect(del.isDestructive({})).toBe(true);
    expect(tool('send_issue').isOpenWorld?.({})).toBe(true);
    expect(get.inputJSONSchema).toMatchObject({
      type: 'object',
      required: ['id'],
      additionalProperties: false,
    });
    const pinned = tool('pinned_hint');
    expect(pinned.alwaysLoad).toBe(true);
    expect(pinned.searchHint).toBe('lighthouse beacon');
    expect(pinned.maxResultSizeChars).toBe(Number.POSITIVE_INFINITY);
  });

  it('calls a tool and marks its output as untrusted', async () => {
    const run = await runTool<McpToolOutput>(tool('echo'), { message: 'hi' }, ctx());
    expect(run.ok).toBe(true);
    expect(Array.isArray(run.content)).toBe(true);
    const blocks = run.content as { type: string; text: string }[];
    expect(blocks[0]?.text).toMatch(/MCP server "test".*not instructions/);
    expect(blocks[1]).toEqual({ type: 'text', text: 'Echo: hi' });
    expect(run.data.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
  });

  it('validates inputs against the server schema before calling', async () => {
    const run = await runTool(tool('get_issue'), { id: 5, extra: true }, ctx());
    expect(run.ok).toBe(false);
    expect(run.error).toMatch(/InputValidationError|id/);
  });

  it('turns isError into an error result', async () => {
    const run = await runTool(tool('fail'), { message: 'boom' }, ctx());
    expect(run.ok).toBe(false);
    expect(run.record.isError).toBe(true);
    expect(run.error).toContain('It failed: boom');
  });

  it('sends images and saves them to a file the model is told about', async () => {
    const run = await runTool<McpToolOutput>(tool('image'), {}, ctx());
    const blocks = run.content as { type: string; text?: string }[];
    expect(blocks.map((b) => b.type)).toEqual(['text', 'text', 'image', 'text']);
    const note = blocks[3]?.text ?? '';
    const file = /\[Image: source: (.+)\]/.exec(note)?.[1] ?? '';
    expect(file.startsWith(path.join(s.sessionDir, 'tool-results', 'mcp-test-blob-'))).toBe(true);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(run.data.files).toEqual([file]);
  });

  it('renders audio, resource links and embedded resources as text', async () => {
    const audio = await runTool(tool('audio'), {}, ctx());
    expect(contentText(audio.content)).toMatch(/\[Audio \(audio\/wav\) saved to: .+\.wav\]/);
    const links = await runTool(tool('links'), {}, ctx());
    const text = contentText(links.content);
    expect(text).toContain('[Resource link: readme] test://readme');
    expect(text).toContain('[Resource from test at test://notes] Embedded notes.');
  });

  it('keeps structuredContent as data for hosts', async () => {
    const run = await runTool<McpToolOutput>(tool('structured'), { city: 'Oslo' }, ctx());
    expect(run.data.structuredContent).toEqual({ city: 'Oslo', temperature: 21 });
  });

  it('saves output over MAX_MCP_OUTPUT_TOKENS whole and tells the model where', async () => {
    const run = await runTool<McpToolOutput>(tool('flood'), { chars: 60_000 }, ctx());
    expect(run.ok).toBe(true);
    const text = contentText(run.content);
    expect(text).toMatch(/larger than the 5,000-token limit/);
    expect(run.data.overTokenCap).toBe(true);
    const file = run.data.files?.[0] ?? '';
    expect(readFileSync(file, 'utf8')).toBe('x'.repeat(60_000));
    expect(text.length).toBeLessThan(2_000);
  });

  it('answers roots with the working directories', async () => {
    const run = await runTool(tool('roots'), {}, ctx());
    expect(contentText(run.content)).toContain(`file://${s.root}\nfile://${s.root}/extra`);
  });

  it('routes elicitation to the host', async () => {
    const run = await runTool(tool('elicit'), { question: 'Who?' }, ctx());
    expect(contentText(run.content)).toContain('elicitation accept: {"answer":"Ada"}');
    expect(answers).toEqual([{ message: 'Who?' }]);
  });

  it('forwards progress and cancels on abort', async () => {
    const run = await runTool(tool('slow'), { steps: 3, stepMs: 20 }, ctx());
    // The SDK runs notification handlers a microtask after the message, and drops a progress
    // notification whose response has already arrived, so the last step may not be seen.
    const expected = [1, 2, 3].map((i) => ({
      type: 'mcp_progress',
      progress: i,
      total: 3,
      message: `step ${i}`,
    }));
    expect(run.progress.length).toBeGreaterThanOrEqual(2);
    expect(run.progress).toEqual(expected.slice(0, run.progress.length));
    const context = ctx();
    const running = runTool(tool('slow'), { steps: 200, stepMs: 20 }, context, {
      onProgress: () => context.abortController.abort(),
    });
    const aborted = await running;
    expect(aborted.record.status).toBe('aborted');
    let cancelled = '0';
    for (let i = 0; i < 100 && cancelled === '0'; i++) {
      await new Promise((r) => setTimeout(r, 30));
      cancelled =
        contentText((await runTool(tool('cancelled_calls'), {}, ctx())).content)
          .split('\n')
          .pop() ?? '';
    }
    expect(cancelled).toBe('1');
  });

  it('appends tools announced by list_changed and keeps the old ones in place', async () => {
    const before = s.manager.tools().map((t) => t.name);
    const echo = tool('echo');
    let changes = 0;
    const off = s.manager.onToolsChanged(() => changes++);
    await runTool(tool('add_tool'), { name: 'aaa_first' }, ctx());
    for (let i = 0; i < 100 && !s.manager.tools().some((t) => t.name === 'mcp__test__aaa_first'); i++)
      await new Promise((r) => setTimeout(r, 20));
    off();
    const after = s.manager.tools().map((t) => t.name);
    expect(after).toEqual([...before, 'mcp__test__aaa_first']);
    expect(tool('echo')).toBe(echo);
    expect(changes).toBeGreaterThan(0);
  });

  it('keeps the stderr log under the session directory', () => {
    const log = s.manager.reports()[0]?.logFile ?? '';
    expect(log).toBe(path.join(s.sessionDir, 'mcp-logs', 'test.log'));
  });
});

describe('failing servers', () => {
  it('a server that never starts is reported failed; the session goes on', async () => {
    const m = await startMcpSession({
      broken: stdioEntry({ command: '/nonexistent/server-binary', args: [] }),
      ok: stdioEntry(mcpTestServerCommand({ toolCount: 1, special: false })),
    });
    try {
      const reports = m.manager.reports();
      expect(reports.find((r) => r.name === 'broken')).toMatchObject({ status: 'failed' });
      expect(reports.find((r) => r.name === 'broken')?.error).toMatch(/ENOENT|spawn|closed/i);
      expect(reports.find((r) => r.name === 'ok')?.status).toBe('connected');
      expect(m.manager.tools().map((t) => t.name)).toEqual(['mcp__ok__get_issue']);
    } finally {
      await m.cleanup();
    }
  });

  it('a server that does not answer within MCP_TIMEOUT fails and is killed', async () => {
    const name = `hang-${randomUUID()}`;
    const m = await startMcpSession(
      { hang: stdioEntry({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', name] }) },
      { env: { MCP_TIMEOUT: '1500' } },
    );
    try {
      expect(m.manager.reports()[0]).toMatchObject({ status: 'failed' });
      expect(m.manager.reports()[0]?.error).toMatch(/1500 ms \(MCP_TIMEOUT\)/);
      expect(processesMatching(name)).toEqual([]);
    } finally {
      await m.cleanup();
    }
  });

  it('a server that crashes mid-call gives that call an error result and is marked failed', async () => {
    const m = await startMcpSession({ crashy: stdioEntry(mcpTestServerCommand({ toolCount: 0 })) });
    try {
      const crash = m.manager.tools().find((t) => t.name === 'mcp__crashy__crash');
      if (!crash) throw new Error('no crash tool');
      const run = await runTool(crash, {}, makeToolContext({ cwd: m.root, sessionDir: m.sessionDir }));
      expect(run.ok).toBe(false);
      expect(run.error).toMatch(/closed the connection during crash/);
      expect(m.manager.reports()[0]?.status).toBe('failed');
      expect(m.manager.tools()).toEqual([]);
    } finally {
      await m.cleanup();
    }
  });
});

describe('per-call timeouts', () => {
  it('MCP_TOOL_TIMEOUT ends a long call (cancelled on the server), an entry "timeout" overrides it', async () => {
    const cmd = mcpTestServerCommand({ toolCount: 0 });
    const m = await startMcpSession(
      { quick: stdioEntry(cmd), patient: stdioEntry(cmd, { timeoutMs: 60_000 }) },
      { env: { MCP_TIMEOUT: '60000', MCP_TOOL_TIMEOUT: '400' } },
    );
    try {
      const find = (name: string) => m.manager.tools().find((t) => t.name === name) as never;
      const context = () => makeToolContext({ cwd: m.root, sessionDir: m.sessionDir });
      const slow = await runTool(find('mcp__quick__slow'), { steps: 10, stepMs: 100 }, context());
      expect(slow.ok).toBe(false);
      expect(slow.error).toMatch(/did not finish slow within 400 ms \(MCP_TOOL_TIMEOUT/);
      // The server sees the cancellation at its next step.
      let cancelled = '';
      for (let i = 0; i < 50 && !/\b1\b/.test(cancelled); i++) {
        await new Promise((r) => setTimeout(r, 50));
        cancelled = contentText((await runTool(find('mcp__quick__cancelled_calls'), {}, context())).content);
      }
      expect(cancelled).toMatch(/\b1\b/);
      expect(m.manager.reports().map((r) => r.status)).toEqual(['connected', 'connected']);
      const patient = await runTool(find('mcp__patient__slow'), { steps: 10, stepMs: 60 }, context());
      expect(patient.ok, patient.error).toBe(true);
    } finally {
      await m.cleanup();
    }
  });
});

describe('through the runtime, a one-call turn (its signal goes to the SDK as is)', () => {
  it('delivers progress, cancels on abort, times out, and the next call runs', async () => {
    const cmd = mcpTestServerCommand({ toolCount: 0 });
    const m = await startMcpSession(
      { t: stdioEntry(cmd) },
      { env: { MCP_TIMEOUT: '60000', MCP_TOOL_TIMEOUT: '600' } },
    );
    try {
      const progress: unknown[] = [];
      let host = new AbortController();
      const runtime = createToolRuntime({
        tools: m.manager.tools(),
        cwd: m.root,
        sessionDir: m.sessionDir,
        decide: allowAllDecider,
        env: {},
        onProgress: (event) => {
          progress.push(event.data);
          if (progress.length === 2) host.abort();
        },
      });
      let n = 0;
      const call = async (name: string, input: Record<string, unknown>) =>
        (
          await runtime.runToolsToCompletion([toolUse(`toolu_${++n}`, `mcp__t__${name}`, input)], {
            signal: host.signal,
          })
        ).calls[0];
      const cancelledCalls = async () => {
        host = new AbortController();
        const record = await call('cancelled_calls', {});
        return contentText((record?.data as McpToolOutput).content);
      };
      // Abort after the second progress event: the call ends aborted, the server is told.
      const aborted = await call('slow', { steps: 200, stepMs: 20 });
      expect(aborted?.status).toBe('aborted');
      expect(progress.slice(0, 2)).toEqual([
        { type: 'mcp_progress', progress: 1, total: 200, message: 'step 1' },
        { type: 'mcp_progress', progress: 2, total: 200, message: 'step 2' },
      ]);
      let cancelled = '';
      for (let i = 0; i < 100 && !/\b1$/.test(cancelled); i++) {
        await new Promise((r) => setTimeout(r, 30));
        cancelled = await cancelledCalls();
      }
      expect(cancelled).toMatch(/\b1$/);
      // The per-call timeout, then a call that runs.
      host = new AbortController();
      const late = await call('slow', { steps: 20, stepMs: 100 });
      expect(late?.status).toBe('error');
      const echo = await call('echo', { message: 'after' });
      expect(echo?.status).toBe('ok');
      expect(contentText((echo?.data as McpToolOutput).content)).toBe('Echo: after');
      expect(m.manager.reports().map((r) => r.status)).toEqual(['connected']);
    } finally {
      await m.cleanup();
    }
  });
});

describe('no orphan processes', () => {
  it('closing the session ends every server process, launched through a shell too', async () => {
    const name = `orphan-${randomUUID()}`;
    const cmd = mcpTestServerCommand({ toolCount: 1, name });
    const m = await startMcpSession({
      direct: stdioEntry(cmd),
      viaShell: stdioEntry({
        command: '/bin/sh',
        args: ['-c', `${[cmd.command, ...cmd.args].map((a) => `'${a}'`).join(' ')}; true`],
      }),
    });
    expect(m.manager.reports().map((r) => r.status)).toEqual(['connected', 'connected']);
    expect(processesMatching(name).length).toBeGreaterThanOrEqual(3);
    await m.cleanup();
    expect(processesMatching(name)).toEqual([]);
    expect(existsSync(m.sessionDir)).toBe(false);
  });
});
