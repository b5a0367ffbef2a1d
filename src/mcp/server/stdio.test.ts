/**
 * `gantry mcp` as a real process over stdio, driven by the SDK's client (StdioClientTransport),
 * against the real built-in tools and the real permission engine. One server process per describe block; every file the tests
 * look for is checked on disk, not only in the reply.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleToolPool, toolDefinitions } from '../../runtime/index.js';
import { getAllBaseTools } from '../../tools/index.js';
import { connectGantryStdio, makeLayout, type McpLayout, textOf } from './test-support.js';

/** Fills the project: a source tree for Read/Grep/Glob, a secret a deny rule covers. */
async function fillProject(layout: McpLayout): Promise<void> {
  await mkdir(path.join(layout.project, 'src', 'lib'), { recursive: true });
  await writeFile(path.join(layout.project, 'README.md'), '# demo\nneedle in the readme\n');
  await writeFile(path.join(layout.project, 'src', 'main.ts'), 'export const needle = 1;\n');
  await writeFile(path.join(layout.project, 'src', 'lib', 'util.ts'), 'export const hay = 2;\n');
  await writeFile(path.join(layout.project, 'src', 'lib', 'notes.md'), 'no match here\n');
  await writeFile(path.join(layout.project, 'secret.txt'), 'top secret\n');
  await writeFile(path.join(layout.outside, 'other.txt'), 'outside the project\n');
}

describe('gantry mcp over stdio (SDK client): default --on-ask deny, deny rules from --settings', () => {
  let layout: McpLayout;
  let client: Client;
  let settingsFile: string;

  beforeAll(async () => {
    layout = await makeLayout();
    await fillProject(layout);
    settingsFile = path.join(layout.root, 'gantry-settings.json');
    // A deny rule for one file, and a bare deny that removes a tool from the list.
    await writeFile(
      settingsFile,
      JSON.stringify({ permissions: { deny: ['Read(secret.txt)', 'NotebookEdit'] } }, null, 2),
    );
    ({ client } = await connectGantryStdio(['--cwd', layout.project, '--settings', settingsFile], {
      home: layout.home,
    }));
  });
  afterAll(async () => {
    await client?.close();
    await layout?.cleanup();
  });

  it('lists the built-in tools with the names, descriptions and JSON Schemas the model sees', async () => {
    const { tools } = await client.listTools();
    const pool = assembleToolPool({ builtIn: await getAllBaseTools({ env: {} }) });
    const expected = toolDefinitions(pool.callable).filter((d) => d.name !== 'NotebookEdit');
    expect(tools.map((t) => t.name)).toEqual(expected.map((d) => d.name));
    for (const def of expected) {
      const listed = tools.find((t) => t.name === def.name);
      expect(listed?.description, def.name).toBe(def.description);
      expect(listed?.inputSchema, def.name).toEqual(def.input_schema);
    }
  });

  it('a bare deny rule in the settings removes the tool from the list and from calls', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('NotebookEdit');
    const r = await client.callTool({
      name: 'NotebookEdit',
      arguments: { notebook_path: path.join(layout.project, 'x.ipynb'), new_source: 'x' },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('No such tool available: NotebookEdit');
  });

  it.each([
    [
      'Read',
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      'reads only',
    ],
    [
      'Glob',
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      'lists names only',
    ],
    [
      'Grep',
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      'reads only',
    ],
    [
      'Write',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      'overwrites files',
    ],
    [
      'Edit',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      'changes files',
    ],
    [
      'Bash',
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      'runs any command, may reach the network',
    ],
  ] as const)('annotations of %s: %j (%s)', async (name, annotations, _why) => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === name);
    expect(tool, `${name} is listed`).toBeDefined();
    expect(tool?.annotations).toMatchObject(annotations);
  });

  it('Read of a file inside the project is allowed (read-only, inside the working directories)', async () => {
    const r = await client.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.project, 'README.md') },
    });
    expect(r.isError).toBe(false);
    expect(textOf(r)).toMatch(/1\t# demo\n\s+2\tneedle in the readme/);
  });

  it('Read outside the project asks; with --on-ask deny it comes back as isError with the reason', async () => {
    const r = await client.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.outside, 'other.txt') },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('--on-ask deny');
    expect(textOf(r)).toContain('outside the working directories');
    expect(textOf(r)).not.toContain('outside the project\n');
  });

  it('a deny rule from the --settings file denies with the rule, its file and line', async () => {
    const r = await client.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.project, 'secret.txt') },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('Denied by deny rule Read(secret.txt)');
    expect(textOf(r)).toContain(`${settingsFile}:`);
    expect(textOf(r)).not.toContain('top secret');
  });

  it('Write outside the project is refused (ask → --on-ask deny) and the file is not written', async () => {
    const target = path.join(layout.outside, 'written.txt');
    const r = await client.callTool({ name: 'Write', arguments: { file_path: target, content: 'x' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('outside the working directories');
    expect(existsSync(target)).toBe(false);
  });

  it('Write to .env is denied as a protected file and the file is not written', async () => {
    const target = path.join(layout.project, '.env');
    const r = await client.callTool({
      name: 'Write',
      arguments: { file_path: target, content: 'TOKEN=x\n' },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('Permission to use Write was denied');
    expect(textOf(r)).toContain('protected path');
    expect(existsSync(target)).toBe(false);
  });

  it('Bash `touch` with no allow rule asks; --on-ask deny refuses it and nothing is created', async () => {
    const r = await client.callTool({ name: 'Bash', arguments: { command: 'touch created-by-bash' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('--on-ask deny');
    expect(existsSync(path.join(layout.project, 'created-by-bash'))).toBe(false);
  });

  it('Bash `ls` (read-only, inside the project) runs in the project directory', async () => {
    const r = await client.callTool({ name: 'Bash', arguments: { command: 'ls' } });
    expect(r.isError).toBe(false);
    const names = textOf(r).split('\n');
    expect(names).toEqual(expect.arrayContaining(['README.md', 'secret.txt', 'src']));
  });

  it('Grep finds the files whose content matches, and only those', async () => {
    const r = await client.callTool({ name: 'Grep', arguments: { pattern: 'needle', path: layout.project } });
    expect(r.isError).toBe(false);
    const text = textOf(r);
    expect(text).toContain('Found 2 files');
    expect(text).toContain('README.md');
    expect(text).toContain(path.join('src', 'main.ts'));
    expect(text).not.toContain('util.ts');
  });

  it('Glob lists the files matching the pattern, and only those', async () => {
    const r = await client.callTool({
      name: 'Glob',
      arguments: { pattern: '**/*.ts', path: layout.project },
    });
    expect(r.isError).toBe(false);
    const files = textOf(r).split('\n').sort();
    expect(files).toEqual([path.join('src', 'lib', 'util.ts'), path.join('src', 'main.ts')]);
  });

  it('concurrent tools/call requests each get their own result (none fails with a protocol error)', async () => {
    const readme = path.join(layout.project, 'README.md');
    const main = path.join(layout.project, 'src', 'main.ts');
    const results = await Promise.all([
      client.callTool({ name: 'Read', arguments: { file_path: readme } }),
      client.callTool({ name: 'Read', arguments: { file_path: main } }),
      client.callTool({ name: 'Glob', arguments: { pattern: '**/*.md', path: layout.project } }),
      client.callTool({
        name: 'Write',
        arguments: { file_path: path.join(layout.project, '.env'), content: 'x' },
      }),
      client.callTool({ name: 'Read', arguments: { file_path: readme } }),
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, true, false]);
    expect(textOf(results[0])).toContain('needle in the readme');
    expect(textOf(results[1])).toContain('export const needle = 1;');
    expect(textOf(results[2]).split('\n').sort()).toEqual(['README.md', path.join('src', 'lib', 'notes.md')]);
    expect(textOf(results[3])).toContain('protected path');
    expect(textOf(results[4])).toContain('needle in the readme');
  });

  it('schema errors and unknown tools are isError results, not protocol errors', async () => {
    const bad = await client.callTool({ name: 'Read', arguments: { file_path: 42 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('file_path');
    const unknown = await client.callTool({ name: 'NoSuchTool', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No such tool available: NoSuchTool');
  });
});

describe('gantry mcp over stdio (SDK client): --on-ask allow', () => {
  let layout: McpLayout;
  let client: Client;

  beforeAll(async () => {
    layout = await makeLayout();
    await fillProject(layout);
    ({ client } = await connectGantryStdio(['--cwd', layout.project, '--on-ask', 'allow'], {
      home: layout.home,
    }));
  });
  afterAll(async () => {
    await client?.close();
    await layout?.cleanup();
  });

  it('Bash `touch` (ask, no allow rule) runs and really creates the file', async () => {
    const r = await client.callTool({ name: 'Bash', arguments: { command: 'touch created-by-bash' } });
    expect(r.isError).toBe(false);
    expect(existsSync(path.join(layout.project, 'created-by-bash'))).toBe(true);
  });

  it('Write inside the project (ask in default mode) writes the file', async () => {
    const target = path.join(layout.project, 'new.txt');
    const r = await client.callTool({ name: 'Write', arguments: { file_path: target, content: 'hello\n' } });
    expect(r.isError).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('hello\n');
  });

  it('a deny stays a deny: --on-ask allow never lifts a protected file', async () => {
    const target = path.join(layout.project, '.env');
    const r = await client.callTool({ name: 'Write', arguments: { file_path: target, content: 'x' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('protected path');
    expect(existsSync(target)).toBe(false);
  });
});

describe('gantry mcp over stdio (SDK client): elicitation and roots', () => {
  let layout: McpLayout;
  let client: Client;
  const prompts: string[] = [];
  /** What the simulated user answers to the next prompts (allow when empty). */
  const answers: ('allow' | 'deny' | 'decline')[] = [];

  beforeAll(async () => {
    layout = await makeLayout();
    await fillProject(layout);
    ({ client } = await connectGantryStdio(['--cwd', layout.project], {
      home: layout.home,
      capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
      setup: (c) => {
        c.setRequestHandler(ElicitRequestSchema, async (request) => {
          prompts.push(request.params.message);
          const answer = answers.shift() ?? 'allow';
          if (answer === 'decline') return { action: 'decline' };
          return { action: 'accept', content: { decision: answer } };
        });
        c.setRequestHandler(ListRootsRequestSchema, async () => ({
          roots: [
            { uri: pathToFileURL(layout.project).href, name: 'project' },
            { uri: pathToFileURL(layout.outside).href, name: 'outside' },
          ],
        }));
      },
    }));
  });
  afterAll(async () => {
    await client?.close();
    await layout?.cleanup();
  });

  it('a client root becomes a working directory from the first call: Read there runs without a prompt', async () => {
    const r = await client.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.outside, 'other.txt') },
    });
    expect(r.isError).toBe(false);
    expect(textOf(r)).toContain('outside the project');
    expect(prompts).toEqual([]);
  });

  it('ask is put to the user through elicitation, with the call and the reason; allow runs it', async () => {
    answers.push('allow');
    const target = path.join(layout.project, 'approved.txt');
    const r = await client.callTool({ name: 'Write', arguments: { file_path: target, content: 'ok\n' } });
    expect(r.isError).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('ok\n');
    expect(prompts.at(-1)).toContain('Gantry asks before running Write');
    expect(prompts.at(-1)).toContain('approved.txt');
    expect(prompts.at(-1)).toContain('Reason: Needs approval');
  });

  it.each([
    ['deny', 'the user answered deny', 'the user picked deny in the form'],
    ['decline', 'the user declined', 'the user declined the form'],
  ] as const)(
    'elicitation answered %s → isError naming it (%s), nothing written (%s)',
    async (answer, words, _why) => {
      answers.push(answer);
      const target = path.join(layout.project, `refused-${answer}.txt`);
      const r = await client.callTool({ name: 'Write', arguments: { file_path: target, content: 'x' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain(words);
      expect(textOf(r)).toContain('needed approval because: Needs approval');
      expect(existsSync(target)).toBe(false);
    },
  );

  it('Bash through elicitation: an approved `touch` really creates the file', async () => {
    answers.push('allow');
    const r = await client.callTool({ name: 'Bash', arguments: { command: 'touch approved-by-bash' } });
    expect(r.isError).toBe(false);
    expect(existsSync(path.join(layout.project, 'approved-by-bash'))).toBe(true);
    expect(prompts.at(-1)).toContain('touch approved-by-bash');
  });

  it('no prompt for a deny: a protected file is refused without asking', async () => {
    const before = prompts.length;
    const r = await client.callTool({
      name: 'Write',
      arguments: { file_path: path.join(layout.project, '.env'), content: 'x' },
    });
    expect(r.isError).toBe(true);
    expect(prompts.length).toBe(before);
  });
});
