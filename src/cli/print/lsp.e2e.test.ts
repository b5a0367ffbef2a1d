/**
 * The LSP tool in `gantry -p` as a real process, with `GANTRY_FEATURE_LSP=1` and a real
 * typescript-language-server configured through `--settings` `lspServers`: the model asks for a
 * hover (no prompt: a read inside the project), then edits a file into a type error and sees the
 * server's diagnostic in its next request. When gantry exits, the server is gone.
 */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  TS_LANGUAGE_SERVER,
  typescriptServerEntry,
  writeTypescriptProject,
} from '../../testing/lsp-fixtures.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';
import { processesWithMarker } from '../../testing/processes.js';

let world: PrintWorld;
let anthropic: FakeAnthropicServer | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await anthropic?.close();
  anthropic = undefined;
  world.cleanup();
});

describe('gantry -p: LSP', () => {
  it('hover without a prompt, diagnostics after an Edit reach the model, the server stops with the session', async () => {
    const files = await writeTypescriptProject(world.project);
    // The server is started through a link under the world's unique directory, so its process can
    // be found by that name afterwards.
    const command = path.join(world.root, 'typescript-language-server');
    symlinkSync(TS_LANGUAGE_SERVER, command);
    anthropic = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        // math.ts: main.ts is first shown to the server by the Edit, so no answer about its older
        // text can arrive in between.
        reply.toolUse('LSP', { operation: 'hover', filePath: 'src/math.ts', line: 10, character: 17 }),
        reply.toolUse('Read', { file_path: files.main }),
        reply.toolUse('Edit', {
          file_path: files.main,
          old_string: 'return String(total());',
          new_string: 'return total();',
        }),
        reply.text('The edit broke the return type of report.'),
      ],
    });
    const settings = JSON.stringify({ lspServers: { typescript: typescriptServerEntry({ command }) } });
    const r = await runGantry(
      ['-p', '--output-format', 'json', '--allowedTools', 'Edit', '--settings', settings, 'check main.ts'],
      {
        cwd: world.project,
        env: gantryEnv(world, anthropic, {
          GANTRY_FEATURE_LSP: '1',
          ENABLE_TOOL_SEARCH: 'false',
          // Language servers start only in a trusted folder (docs/lsp.md).
          GANTRY_TRUST_PROJECT: '1',
        }),
        timeoutMs: 120_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ is_error: false, num_turns: 4 });
    const requests = anthropic.messageRequests.map((q) => q.body);
    expect(requests).toHaveLength(4);
    expect((requests[0].tools ?? []).map((t: { name: string }) => t.name)).toContain('LSP');
    const lastMessage = (i: number) => JSON.stringify(requests[i].messages.at(-1));
    // The hover answer, as the model reads it (not an error: no prompt was needed).
    expect(lastMessage(1)).toContain('add(a: number, b: number): number');
    expect(lastMessage(1)).not.toContain('"is_error":true');
    // After the Edit: the tool result, then the server's diagnostic as a system reminder.
    const afterEdit = lastMessage(3);
    expect(afterEdit).not.toContain('"is_error":true');
    expect(afterEdit).toContain('<system-reminder>');
    expect(afterEdit).toContain(
      'The LSP server \\"typescript\\" reports 1 error in src/main.ts after this Edit',
    );
    expect(afterEdit).toContain("6:3 error TS2322: Type 'number' is not assignable to type 'string'.");
    expect(processesWithMarker(world.root)).toEqual([]);
  }, 150_000);
});
