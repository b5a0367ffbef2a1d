/**
 * WebFetch and WebSearch through `createAgent`, the library face: the settings files' `webFetch`
 * allowances reach the built-in WebFetch (a real page from a local HTTP server), its prompt is
 * answered through the agent's own model client, and WebSearch is offered because that client is
 * on Anthropic, even with no Anthropic key in the environment (a host that passes a client).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reply } from '../../testing/fake-model-script.js';
import { type LocalWebServer, page, startLocalWebServer } from '../../testing/local-web-server.js';
import {
  collect,
  type FakeModel,
  type LoopWorld,
  makeLoopWorld,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { createAgent } from '../agent.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
let web: LocalWebServer | undefined;
afterEach(async () => {
  await model?.close();
  await web?.close();
  world?.cleanup();
  model = undefined;
  web = undefined;
  world = undefined;
});

describe('createAgent: web tools', () => {
  it('WebFetch obeys the settings allowances and answers through the agent model; WebSearch is offered on Anthropic', async () => {
    world = makeLoopWorld();
    web = await startLocalWebServer({
      '/notes.html': page('<html><body><h1>Release notes</h1><p>Version 3 drops Node 18.</p></body></html>'),
    });
    const settingsFile = path.join(world.root, 'settings.json');
    writeFileSync(
      settingsFile,
      JSON.stringify({
        permissions: { allow: ['WebFetch'] },
        webFetch: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
      }),
    );
    model = await startFakeModel('anthropic', [
      reply.toolUse('WebFetch', { url: web.url('/notes.html'), prompt: 'What does version 3 drop?' }),
      reply.text('Version 3 drops support for Node 18.'),
      reply.text('Node 18.'),
    ]);
    const agent = createAgent({
      cwd: world.project,
      home: world.home,
      modelClient: model.client,
      model: 'claude-haiku-5-5',
      env: { GANTRY_MAX_RETRIES: '0' },
      settings: { files: [settingsFile], managedFiles: [] },
      transcript: { gantryHome: world.gantryHome },
    });
    const run = await collect(agent.query('what changed?'));
    expect(run.results[0]?.result).toBe('Node 18.');
    const [first, step, last] = model.requests().map((r) => r.body);
    expect(first.tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(['WebFetch', 'WebSearch']));
    expect(JSON.stringify(step.messages)).toContain('# Release notes');
    expect(JSON.stringify(last.messages)).toContain('Version 3 drops support for Node 18.');
    expect(web.requests).toHaveLength(1);
  });
});
