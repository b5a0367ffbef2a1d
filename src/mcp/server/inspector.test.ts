/**
 * The official MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`, devDependency) as a second,
 * independent client of `gantry mcp`: tools/list and tools/call over stdio, and
 * tools/list over Streamable HTTP, asserting on the JSON it prints.
 *
 * The inspector is run from its own `build/` directory: version 1.0.3 looks for its package.json
 * with `existsSync('../package.json')` relative to the *current directory* but imports it relative
 * to its module, so from any other directory it fails with "Cannot find module
 * '…/node_modules/@modelcontextprotocol/package.json'". From `build/` both resolve to its own file.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleToolPool, toolDefinitions } from '../../runtime/index.js';
import { getAllBaseTools } from '../../tools/index.js';
import { GANTRY_BIN, makeLayout, type McpLayout, REPO, serverEnv } from './test-support.js';

const run = promisify(execFile);
const INSPECTOR_DIR = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');
const INSPECTOR = path.join(INSPECTOR_DIR, 'cli.js');

interface ListedTool {
  name: string;
  inputSchema: unknown;
  annotations?: Record<string, unknown>;
}

describe('MCP Inspector CLI as an independent client of gantry mcp', () => {
  let layout: McpLayout;

  /** Runs the inspector in CLI mode and parses the JSON it prints on stdout. */
  async function inspector(target: string[], method: string[]): Promise<unknown> {
    const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...target, ...method], {
      cwd: INSPECTOR_DIR,
      env: { ...process.env, HOME: layout.home },
      timeout: 60_000,
    });
    return JSON.parse(stdout);
  }
  const gantryStdio = () => [process.execPath, GANTRY_BIN, 'mcp', '--cwd', layout.project];

  beforeAll(async () => {
    layout = await makeLayout();
    await writeFile(path.join(layout.project, 'notes.txt'), 'first line\nsecond line\n');
  });
  afterAll(async () => {
    await layout?.cleanup();
  });

  it('is installed (devDependency)', () => {
    expect(existsSync(INSPECTOR)).toBe(true);
  });

  it('tools/list over stdio: the model-facing names and schemas, with annotations', async () => {
    const out = (await inspector(gantryStdio(), ['--method', 'tools/list'])) as { tools: ListedTool[] };
    const expected = toolDefinitions(
      assembleToolPool({ builtIn: await getAllBaseTools({ env: {} }) }).callable,
    );
    expect(out.tools.map((t) => t.name)).toEqual(expected.map((d) => d.name));
    for (const def of expected)
      expect(out.tools.find((t) => t.name === def.name)?.inputSchema, def.name).toEqual(def.input_schema);
    expect(out.tools.find((t) => t.name === 'Read')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(out.tools.find((t) => t.name === 'Write')?.annotations).toMatchObject({ destructiveHint: true });
  });

  it('tools/call Read over stdio returns the numbered file content', async () => {
    const out = await inspector(gantryStdio(), [
      '--method',
      'tools/call',
      '--tool-name',
      'Read',
      '--tool-arg',
      `file_path=${path.join(layout.project, 'notes.txt')}`,
    ]);
    expect(out).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/1\tfirst line\n\s+2\tsecond line/) }],
      isError: false,
    });
  });

  it('tools/call of a refused Write over stdio is an isError result, and nothing is written', async () => {
    const target = path.join(layout.project, '.env');
    const out = (await inspector(gantryStdio(), [
      '--method',
      'tools/call',
      '--tool-name',
      'Write',
      '--tool-arg',
      `file_path=${target}`,
      'content=SECRET=1',
    ])) as { isError: boolean; content: { text: string }[] };
    expect(out.isError).toBe(true);
    expect(out.content[0]?.text).toContain('protected path');
    expect(existsSync(target)).toBe(false);
  });

  describe('over Streamable HTTP', () => {
    let child: ChildProcess;
    let url: string;

    beforeAll(async () => {
      child = spawn(
        process.execPath,
        [GANTRY_BIN, 'mcp', '--transport', 'http', '--port', '0', '--cwd', layout.project],
        { cwd: REPO, env: serverEnv(layout.home), stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      url = await new Promise<string>((resolve, reject) => {
        child.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const m = /gantry mcp listening on (\S+)/.exec(stderr);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`gantry mcp exited ${code}: ${stderr}`)));
      });
    });
    afterAll(async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        const done = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await done;
      }
    });

    it('tools/list and tools/call Read against the URL', async () => {
      const list = (await inspector([url], ['--method', 'tools/list'])) as { tools: ListedTool[] };
      expect(list.tools.map((t) => t.name)).toContain('Read');
      const out = (await inspector(
        [url],
        [
          '--method',
          'tools/call',
          '--tool-name',
          'Read',
          '--tool-arg',
          `file_path=${path.join(layout.project, 'notes.txt')}`,
        ],
      )) as { isError: boolean; content: { text: string }[] };
      expect(out.isError).toBe(false);
      expect(out.content[0]?.text).toContain('second line');
    });
  });
});
