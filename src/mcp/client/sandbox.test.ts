/**
 * Sandboxed stdio servers: with the sandbox on, a stdio MCP server runs under bubblewrap with the
 * Bash policy (writes only inside the working directories and the session temp dir), so a server
 * told to write outside the project cannot; a server the user lets out (`unsandboxedServers`)
 * can. The permission step allows the calls here (allow-all decider): the sandbox is what stops
 * the write. docs/mcp-client.md "Sandboxed servers".
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText } from '../../core/content.js';
import { defaultSandboxSettings } from '../../core/sandbox-settings.js';
import { createSandboxManager, type SandboxManager } from '../../sandbox/index.js';
import { type McpTestSession, startMcpSession, stdioEntry } from '../../testing/mcp-client-fixtures.js';
import { mcpTestServerCommand } from '../../testing/mcp-test-server.js';
import { makeTempDir, makeToolContext, runTool } from '../../testing/tool-harness.js';

let s: McpTestSession;
let sandbox: SandboxManager;
let outside: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  outside = await makeTempDir('gantry-mcp-outside-');
  const cmd = mcpTestServerCommand({ toolCount: 0 });
  s = await startMcpSession({ jailed: stdioEntry(cmd), trusted: stdioEntry(cmd) }, (session) => {
    sandbox = createSandboxManager({
      settings: { ...defaultSandboxSettings(), enabled: true },
      workingDirectories: () => [session.root],
    });
    return { sandbox, unsandboxedServers: ['trusted'] };
  });
});
afterAll(async () => {
  await s?.cleanup();
  await sandbox?.dispose();
  await outside?.cleanup();
});

const write = async (server: string, file: string) => {
  const t = s.manager.tools().find((x) => x.name === `mcp__${server}__write_file`);
  if (!t) throw new Error(`no write_file on ${server}`);
  return runTool(
    t,
    { path: file, content: server },
    makeToolContext({ cwd: s.root, sessionDir: s.sessionDir }),
  );
};

describe('sandboxed stdio servers', () => {
  it('both servers connected; only the jailed one is sandboxed', () => {
    const reports = s.manager.reports();
    expect(reports.map((r) => [r.name, r.status, r.sandboxed === true])).toEqual([
      ['jailed', 'connected', true],
      ['trusted', 'connected', false],
    ]);
  });

  it('the sandboxed server writes inside the project', async () => {
    const file = path.join(s.root, 'inside.txt');
    const run = await write('jailed', file);
    expect(run.ok).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('jailed');
  });

  it('the sandboxed server cannot write outside the project', async () => {
    const file = path.join(outside.dir, 'escape.txt');
    const run = await write('jailed', file);
    expect(run.ok).toBe(false);
    expect(run.error).toMatch(/write failed: .*(EROFS|read-only|EACCES|ENOENT)/i);
    expect(existsSync(file)).toBe(false);
  });

  it('a server the user lets out of the sandbox can', async () => {
    const file = path.join(outside.dir, 'trusted.txt');
    const run = await write('trusted', file);
    expect(contentText(run.content)).toContain(`wrote ${file}`);
    expect(readFileSync(file, 'utf8')).toBe('trusted');
  });
});
