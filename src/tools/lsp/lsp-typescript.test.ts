/**
 * The LSP tool against a real typescript-language-server (with TypeScript 5.9's tsserver) on a
 * small project in a temp directory. One server for the whole file: it is started by the first
 * call through the session services and shared by every later call.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionServices, type SessionServicesHandle } from '../../runtime/index.js';
import { typescriptServerEntry, writeTypescriptProject } from '../../testing/lsp-fixtures.js';
import { waitFor } from '../../testing/processes.js';
import { makeTempDir, makeToolContext, runTool } from '../../testing/tool-harness.js';
import type { ToolUseContext } from '../../core/index.js';
import { parseLspServers } from './config.js';
import { createLspTool, type LspOutput } from './lsp.tool.js';
import { LspServer } from './server.js';

const SLOW = 90_000;

let temp: { dir: string; cleanup(): Promise<void> };
let files: { math: string; main: string };
let services: SessionServicesHandle;
let context: ToolUseContext;
let tool: ReturnType<typeof createLspTool>;

beforeAll(async () => {
  temp = await makeTempDir('gantry-lsp-ts-');
  files = await writeTypescriptProject(temp.dir);
  const { servers, problems } = parseLspServers({ typescript: typescriptServerEntry() }, temp.dir);
  expect(problems).toEqual([]);
  tool = createLspTool({ servers });
  services = createSessionServices();
  context = makeToolContext({ cwd: temp.dir, services });
});

afterAll(async () => {
  await services.dispose();
  await temp.cleanup();
});

async function lsp(input: Record<string, unknown>) {
  const run = await runTool<LspOutput>(tool, input, context);
  if (!run.ok) throw new Error(`LSP call failed: ${run.error}`);
  return { data: run.data, text: String(run.content) };
}

function server(): LspServer {
  const s = services.get('lsp:typescript');
  if (!(s instanceof LspServer)) throw new Error('no lsp:typescript resource');
  return s;
}

describe('LSP on typescript-language-server', () => {
  it(
    'hover: the signature of the function under the cursor (1-based position)',
    async () => {
      const { data, text } = await lsp({
        operation: 'hover',
        filePath: 'src/main.ts',
        line: 3,
        character: 10,
      });
      expect(text).toContain('add(a: number, b: number): number');
      expect(data.hover).toContain('add(a: number, b: number): number');
      expect(services.names()).toContain('lsp:typescript');
    },
    SLOW,
  );

  it('goToDefinition: the declaration in the other file, relative path and source line', async () => {
    const { data, text } = await lsp({
      operation: 'goToDefinition',
      filePath: files.main,
      line: 3,
      character: 10,
    });
    expect(data.locations).toEqual([
      expect.objectContaining({
        filePath: files.math,
        line: 10,
        character: 17,
        lineText: expect.stringContaining('export function add'),
      }),
    ]);
    expect(text).toContain('src/math.ts\n  10:17  export function add(a: number, b: number): number {');
  });

  it('findReferences: the declaration, the import and the call, grouped by file', async () => {
    const { data, text } = await lsp({
      operation: 'findReferences',
      filePath: 'src/math.ts',
      line: 10,
      character: 17,
    });
    const at = (data.locations ?? [])
      .map((l) => `${path.basename(l.filePath)}:${l.line}:${l.character}`)
      .sort();
    expect(at).toEqual(['main.ts:1:10', 'main.ts:3:10', 'math.ts:10:17']);
    expect(text).toMatch(/^Found 3 references in 2 files/);
  });

  it('documentSymbol: the outline of the file as a tree', async () => {
    const { data, text } = await lsp({
      operation: 'documentSymbol',
      filePath: 'src/math.ts',
      line: 1,
      character: 1,
    });
    expect(data.symbols?.map((s) => `${s.kind} ${s.name}`)).toEqual([
      'Interface Shape',
      'Class Square',
      'Function add',
    ]);
    expect(text).toContain('Class Square (4:14)');
    expect(text).toContain('\n  Method area (6:3)');
    expect(text).toContain('Function add (10:17)');
  });

  it('workspaceSymbol: by query, and by the word under the cursor when no query is given', async () => {
    const byQuery = await lsp({
      operation: 'workspaceSymbol',
      filePath: 'src/main.ts',
      line: 1,
      character: 1,
      query: 'Square',
    });
    expect(byQuery.text).toContain('Class Square — src/math.ts:4:1');
    const byWord = await lsp({
      operation: 'workspaceSymbol',
      filePath: 'src/main.ts',
      line: 6,
      character: 19,
    });
    expect(byWord.data.query).toBe('total');
    expect(byWord.text).toContain('Function total — src/main.ts:2:1');
  });

  it('goToImplementation: the class method that implements the interface method', async () => {
    const { data } = await lsp({
      operation: 'goToImplementation',
      filePath: 'src/math.ts',
      line: 2,
      character: 3,
    });
    expect(data.locations?.map((l) => `${path.basename(l.filePath)}:${l.line}:${l.character}`)).toEqual([
      'math.ts:6:3',
    ]);
  });

  it('call hierarchy: prepare, incoming and outgoing calls', async () => {
    const at = { filePath: 'src/main.ts', line: 2, character: 17 };
    const prepared = await lsp({ operation: 'prepareCallHierarchy', ...at });
    expect(prepared.text).toBe('Function total — src/main.ts:2:17');
    const incoming = await lsp({ operation: 'incomingCalls', ...at });
    expect(incoming.data.calls?.map((c) => c.item.name)).toEqual(['report']);
    expect(incoming.text).toContain('Function report — src/main.ts:5:17 (call sites: 6:17)');
    const outgoing = await lsp({ operation: 'outgoingCalls', ...at });
    const callees = outgoing.data.calls?.map((c) => c.item.name) ?? [];
    expect(callees).toContain('add');
    expect(callees).toContain('area');
    expect(outgoing.text).toContain('Function add — src/math.ts:10:17 (call sites in src/main.ts: 3:10)');
  });

  it('a position past the end of the file is an input error naming the length', async () => {
    const run = await runTool(
      tool,
      { operation: 'hover', filePath: 'src/main.ts', line: 99, character: 1 },
      context,
    );
    expect(run.ok).toBe(false);
    expect(run.error).toContain('line 99 is past the end of src/main.ts (8 lines)');
  });

  it('a file the server would handle but that does not exist is reported as missing', async () => {
    const run = await runTool(
      tool,
      { operation: 'hover', filePath: 'src/nope.ts', line: 1, character: 1 },
      context,
    );
    expect(run.ok).toBe(false);
    expect(run.error).toContain('File does not exist');
  });

  it(
    'diagnostics after an edit: a type error is reported, then its fix is reported once',
    async () => {
      const bad = path.join(temp.dir, 'src', 'bad.ts');
      const afterCall = tool.reminders?.afterCall;
      if (!afterCall) throw new Error('no afterCall');
      const view = (toolName: string) => ({
        toolName,
        input: { file_path: 'src/bad.ts' },
        data: {},
        cwd: temp.dir,
        services,
        signal: new AbortController().signal,
      });
      await writeFile(bad, "import { add } from './math';\nexport const label: string = add(1, 2);\n");
      const report = await afterCall(view('Write'));
      expect(report).toContain('The LSP server "typescript" reports 1 error in src/bad.ts after this Write');
      expect(report).toContain(
        "2:14 error TS2322: Type 'number' is not assignable to type 'string'. (typescript)",
      );
      await writeFile(
        bad,
        "import { add } from './math';\nexport const label: string = String(add(1, 2));\n",
      );
      expect(await afterCall(view('Edit'))).toBe(
        'The LSP server "typescript" reports no more errors or warnings in src/bad.ts after this Edit.',
      );
      // Not a file-changing tool, or a file no server handles: nothing.
      expect(await afterCall(view('Read'))).toBeUndefined();
      expect(await afterCall({ ...view('Write'), input: { file_path: 'notes.txt' } })).toBeUndefined();
    },
    SLOW,
  );

  it(
    'a server that crashed is started again on the next call',
    async () => {
      const first = server().pid;
      expect(first).toBeTypeOf('number');
      const starts = server().startCount;
      process.kill(first as number, 'SIGKILL');
      expect(await waitFor(() => !server().running, 10_000)).toBe(true);
      const { text } = await lsp({ operation: 'hover', filePath: 'src/main.ts', line: 3, character: 10 });
      expect(text).toContain('add(a: number, b: number): number');
      expect(server().startCount).toBe(starts + 1);
      expect(server().pid).not.toBe(first);
    },
    SLOW,
  );

  it('disposing the session stops the server and every process of its group', async () => {
    const pid = server().pid as number;
    const groupAlive = () => {
      try {
        process.kill(-pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(groupAlive()).toBe(true);
    expect(await services.dispose()).toEqual([]);
    expect(groupAlive()).toBe(false);
    const run = await runTool(
      tool,
      { operation: 'hover', filePath: 'src/main.ts', line: 3, character: 10 },
      context,
    );
    expect(run.ok).toBe(false);
  });
});
