/**
 * `gantry mcp list` as a real process: a working and a broken server from `--mcp-config`, a
 * project server that still needs approval, the JSON form and the exit codes.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GANTRY_BIN, makeLayout, type McpLayout } from '../mcp/server/test-support.js';
import { readExcludedMcpServers } from '../mcp/client/session-setup.js';
import { mcpTestServerCommand } from '../testing/mcp-test-server.js';

const run = promisify(execFile);
let layout: McpLayout;
beforeAll(async () => {
  layout = await makeLayout('gantry-mcp-list-');
  writeFileSync(
    path.join(layout.project, '.mcp.json'),
    JSON.stringify({ mcpServers: { shared: { command: 'shared-server' } } }),
  );
});
afterAll(() => layout.cleanup());

async function list(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [GANTRY_BIN, 'mcp', 'list', '--cwd', layout.project, ...args], {
      env: { ...process.env, HOME: layout.home },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('gantry mcp list', () => {
  it('reports each server; exit 1 when one failed', async () => {
    const config = JSON.stringify({
      mcpServers: {
        good: mcpTestServerCommand({ toolCount: 3, special: false }),
        bad: { command: '/nonexistent/x' },
      },
    });
    const r = await list(['--mcp-config', config]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^bad: \/nonexistent\/x \(stdio, dynamic\) - ✗ failed: .*ENOENT/);
    expect(lines[1]).toMatch(/^good: .* \(stdio, dynamic\) - ✓ connected, 3 tools$/);
    expect(lines[2]).toMatch(/^shared: shared-server \(stdio, project\) - \? needs approval/);
  });

  it('--json, --strict-mcp-config, exit 0', async () => {
    const config = JSON.stringify({
      mcpServers: { good: mcpTestServerCommand({ toolCount: 1, special: false }) },
    });
    const r = await list(['--mcp-config', config, '--strict-mcp-config', '--json']);
    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout) as { name: string; status: string; toolCount: number }[];
    expect(reports.map((x) => [x.name, x.status, x.toolCount])).toEqual([['good', 'connected', 1]]);
  });
});

describe('sandbox.excludedMcpServers', () => {
  it('is read from user settings, and from project settings only when trusted', () => {
    const user = path.join(layout.home, '.gantry', 'settings.json');
    const shared = path.join(layout.project, '.claude', 'settings.json');
    mkdirSync(path.dirname(user), { recursive: true });
    mkdirSync(path.dirname(shared), { recursive: true });
    writeFileSync(user, JSON.stringify({ sandbox: { excludedMcpServers: ['docker'] } }));
    writeFileSync(shared, JSON.stringify({ sandbox: { excludedMcpServers: ['repo-server'] } }));
    const files = [
      { file: shared, source: 'projectSettings' as const, loaded: true },
      { file: user, source: 'userSettings' as const, loaded: true },
    ];
    expect(readExcludedMcpServers(files, false)).toEqual(['docker']);
    expect(readExcludedMcpServers(files, true).sort()).toEqual(['docker', 'repo-server']);
  });
});
