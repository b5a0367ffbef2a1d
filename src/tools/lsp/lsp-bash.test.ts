/**
 * The LSP tool against a real bash-language-server on a shell script in a temp directory (one
 * server for the file), and what happens when it keeps crashing (`maxRestarts`).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../core/index.js';
import { createSessionServices, type SessionServicesHandle } from '../../runtime/index.js';
import { bashServerEntry } from '../../testing/lsp-fixtures.js';
import { waitFor } from '../../testing/processes.js';
import { makeTempDir, makeToolContext, runTool } from '../../testing/tool-harness.js';
import { parseLspServers } from './config.js';
import { createLspTool, type LspOutput } from './lsp.tool.js';
import { LspServer } from './server.js';

const SLOW = 90_000;

let temp: { dir: string; cleanup(): Promise<void> };
let services: SessionServicesHandle;
let context: ToolUseContext;
let tool: ReturnType<typeof createLspTool>;

beforeAll(async () => {
  temp = await makeTempDir('gantry-lsp-bash-');
  await writeFile(
    path.join(temp.dir, 'build.sh'),
    ['#!/bin/bash', 'greet() {', '  echo "hello $1"', '}', 'NAME=world', 'greet "$NAME"', ''].join('\n'),
  );
  const { servers } = parseLspServers({ bash: bashServerEntry({ maxRestarts: 1 }) }, temp.dir);
  tool = createLspTool({ servers });
  services = createSessionServices();
  context = makeToolContext({ cwd: temp.dir, services });
});

afterAll(async () => {
  await services.dispose();
  await temp.cleanup();
});

async function lsp(input: Record<string, unknown>) {
  const run = await runTool<LspOutput>(tool, { filePath: 'build.sh', ...input }, context);
  if (!run.ok) throw new Error(`LSP call failed: ${run.error}`);
  return { data: run.data, text: String(run.content) };
}

function server(): LspServer {
  const s = services.get('lsp:bash');
  if (!(s instanceof LspServer)) throw new Error('no lsp:bash resource');
  return s;
}

describe('LSP on bash-language-server', () => {
  it(
    'hover on a call names the function and where it is defined',
    async () => {
      const { text } = await lsp({ operation: 'hover', line: 6, character: 2 });
      expect(text).toContain('Function: **greet** - *defined on line 2*');
    },
    SLOW,
  );

  it('goToDefinition of the call: the function', async () => {
    const { data, text } = await lsp({ operation: 'goToDefinition', line: 6, character: 2 });
    expect(data.locations).toEqual([
      expect.objectContaining({ filePath: path.join(temp.dir, 'build.sh'), line: 2, character: 1 }),
    ]);
    expect(text).toContain('build.sh\n  2:1  greet() {');
  });

  it('documentSymbol: the function and the variable', async () => {
    const { text } = await lsp({ operation: 'documentSymbol', line: 1, character: 1 });
    expect(text).toBe('2 symbols in build.sh:\nFunction greet (2:1)\nVariable NAME (5:1)');
  });

  it('an operation the server does not offer is a clear error', async () => {
    const run = await runTool(
      tool,
      { operation: 'incomingCalls', filePath: 'build.sh', line: 2, character: 1 },
      context,
    );
    expect(run.ok).toBe(false);
    expect(run.error).toBe(
      'The LSP server "bash" does not support incomingCalls (it does not offer callHierarchyProvider).',
    );
  });

  it(
    'after maxRestarts crashes the server is not started again in this session',
    async () => {
      const crash = async () => {
        const pid = server().pid as number;
        process.kill(pid, 'SIGKILL');
        expect(await waitFor(() => !server().running, 10_000)).toBe(true);
      };
      await crash();
      expect((await lsp({ operation: 'hover', line: 6, character: 2 })).text).toContain('greet');
      await crash();
      const run = await runTool(
        tool,
        { operation: 'hover', filePath: 'build.sh', line: 6, character: 2 },
        context,
      );
      expect(run.ok).toBe(false);
      expect(run.error).toContain(
        'LSP server "bash" crashed 2 times; it is not restarted again in this session (maxRestarts 1)',
      );
    },
    SLOW,
  );
});
