/**
 * `gantry mcp` as a real process with a broken user settings file: the calls its rules could have
 * restricted are refused (an MCP client without elicitation cannot be asked), with the file, line
 * and error in the tool result — even under `--on-ask allow`, which accepts ordinary asks only.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGantryStdio, makeLayout, type McpLayout, textOf } from './test-support.js';

describe('gantry mcp with a broken ~/.claude/settings.json (fail closed)', () => {
  let layout: McpLayout;
  let client: Client;
  let settingsFile: string;
  let stderr: () => string;

  beforeAll(async () => {
    layout = await makeLayout('gantry-mcp-broken-');
    await writeFile(path.join(layout.project, 'README.md'), '# demo\n');
    settingsFile = path.join(layout.home, '.claude', 'settings.json');
    await mkdir(path.dirname(settingsFile), { recursive: true });
    // `deny` is a string, not a list: the rule is dropped, so nothing it could cover may run unasked.
    await writeFile(settingsFile, '{\n  "permissions": {\n    "deny": "Read(README.md)"\n  }\n}\n');
    ({ client, stderr } = await connectGantryStdio(['--cwd', layout.project, '--on-ask', 'allow'], {
      home: layout.home,
    }));
  });
  afterAll(async () => {
    await client?.close();
    await layout?.cleanup();
  });

  it('refuses a read its deny list could have covered, naming file:line and the error', async () => {
    const r = await client.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.project, 'README.md') },
    });
    expect(r.isError).toBe(true);
    const text = textOf(r);
    expect(text).toContain(`${settingsFile}:3`);
    expect(text).toContain('permissions.deny');
    expect(text).not.toContain('# demo');
    expect(stderr()).toContain(settingsFile);
  });
});

describe('gantry mcp --on-ask allow with valid settings (control)', () => {
  let layout: McpLayout;
  let client: Client;
  beforeAll(async () => {
    layout = await makeLayout('gantry-mcp-valid-');
    await writeFile(path.join(layout.project, 'README.md'), '# demo\n');
    ({ client } = await connectGantryStdio(['--cwd', layout.project, '--on-ask', 'allow'], {
      home: layout.home,
    }));
  });
  afterAll(async () => {
    await client?.close();
    await layout?.cleanup();
  });

  it('the same read runs', async () => {
    const r = await client.callTool({
      name: 'Read',
      arguments: { file_path: path.join(layout.project, 'README.md') },
    });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('# demo');
  });
});
