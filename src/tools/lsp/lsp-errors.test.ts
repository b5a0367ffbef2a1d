/**
 * Servers that do not start: a missing binary, a program that never answers `initialize` (the
 * start-up timeout), one that exits at once. Each is a clear tool error and leaves no process
 * behind. Also: a file type no server handles, and services without resources.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../core/index.js';
import { createSessionServices, type SessionServicesHandle } from '../../runtime/index.js';
import { processesWithMarker } from '../../testing/processes.js';
import { makeTempDir, makeToolContext, runTool } from '../../testing/tool-harness.js';
import { parseLspServers } from './config.js';
import { createLspTool } from './lsp.tool.js';

const marker = `gantry-lsp-never-answers-${process.pid}-${Math.floor(Math.random() * 1e6)}`;

let temp: { dir: string; cleanup(): Promise<void> };
let services: SessionServicesHandle;
let context: ToolUseContext;
let tool: ReturnType<typeof createLspTool>;

beforeAll(async () => {
  temp = await makeTempDir('gantry-lsp-errors-');
  for (const name of ['a.missing', 'a.silent', 'a.dies', 'a.py'])
    await writeFile(path.join(temp.dir, name), 'x\n');
  const { servers, problems } = parseLspServers(
    {
      missing: { command: path.join(temp.dir, 'no-such-server'), extensionToLanguage: { '.missing': 'x' } },
      silent: {
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)', marker],
        extensionToLanguage: { '.silent': 'x' },
        startupTimeoutMs: 300,
        shutdownTimeoutMs: 300,
      },
      dies: {
        command: process.execPath,
        args: ['-e', 'process.stderr.write("cannot find my config\\n"); process.exit(3)'],
        extensionToLanguage: { '.dies': 'x' },
      },
    },
    temp.dir,
  );
  expect(problems).toEqual([]);
  tool = createLspTool({ servers });
  services = createSessionServices();
  context = makeToolContext({ cwd: temp.dir, services });
});

afterAll(async () => {
  await services.dispose();
  await temp.cleanup();
});

const hover = (filePath: string, ctx: ToolUseContext = context) =>
  runTool(tool, { operation: 'hover', filePath, line: 1, character: 1 }, ctx);

describe('LSP servers that do not start', () => {
  it('a missing binary: "command not found" with the path', async () => {
    const run = await hover('a.missing');
    expect(run.ok).toBe(false);
    expect(run.error).toContain(
      `LSP server "missing" (${path.join(temp.dir, 'no-such-server')}) could not be started: command not found`,
    );
  });

  it('no answer to initialize within startupTimeoutMs: a timeout error, and the process is stopped', async () => {
    const run = await hover('a.silent');
    expect(run.ok).toBe(false);
    expect(run.error).toContain('did not finish starting within 300 ms (startupTimeoutMs)');
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it('a server that exits during start-up: its exit code and the tail of its stderr', async () => {
    const run = await hover('a.dies');
    expect(run.ok).toBe(false);
    expect(run.error).toContain('exited during start-up (exit code 3)');
    expect(run.error).toContain('cannot find my config');
  });

  it('a file type no server handles: says what is configured', async () => {
    const run = await hover('a.py');
    expect(run.ok).toBe(false);
    expect(run.error).toContain(
      'No language server is configured for a.py. Configured: missing (.missing); silent (.silent); dies (.dies)',
    );
  });

  it('services that keep no resources: a clear error instead of an unowned process', async () => {
    const bare = makeToolContext({ cwd: temp.dir });
    const withoutResources = { ...bare, services: { tasks: bare.services.tasks } };
    const run = await hover('a.silent', withoutResources);
    expect(run.ok).toBe(false);
    expect(run.error).toContain('needs session services that keep resources');
  });
});
