/**
 * WebFetch's model step on the fake Anthropic server through the real SDK: the Markdown and the
 * prompt sent to haiku by default, a configured model, the provider's retry on overload, a
 * partial-window note, a model that fails for good, and the step turned off.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../model/anthropic/client.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import { generateDocsHtml } from '../../testing/generate-docs-html.js';
import { type LocalWebServer, page } from '../../testing/local-web-server.js';
import { runTool, runToolOk } from '../../testing/tool-harness.js';
import { useWebFetchWorld, webFetchFixture } from '../../testing/web-fetch-world.js';
import type { WebFetchOutput } from './web-fetch.tool.js';

const DOCS = webFetchFixture('docs-page.html');

const w = useWebFetchWorld();
const { makeTool, context, url } = w;
let server: LocalWebServer;
beforeAll(() => {
  server = w.server;
});

describe('WebFetch: the prompt answered by a model (fake Anthropic server)', () => {
  let fake: FakeAnthropicServer;
  afterEach(async () => {
    await fake.close();
  });

  const client = (f: FakeAnthropicServer) =>
    new AnthropicModelClient({ apiKey: 'k', baseURL: f.url, retry: { baseDelayMs: 1, jitter: 0 } });

  it('sends the Markdown and the prompt to haiku by default and returns its answer', async () => {
    fake = await startFakeAnthropicServer({ script: [reply.text('port defaults to 8080; workers to 4.')] });
    server.route('/guide/config.html', page(DOCS));
    const run = await runToolOk<WebFetchOutput>(
      makeTool(),
      { url: url('/guide/config.html'), prompt: 'What are the defaults of port and workers?' },
      context(client(fake)),
    );
    expect(run.data.result).toBe('port defaults to 8080; workers to 4.');
    const body = fake.messageRequests[0]?.body;
    expect(body.model).toBe('claude-haiku-5-5');
    expect(body.tools).toBeUndefined();
    const user = JSON.stringify(body.messages);
    expect(user).toContain('| `port` | integer | 8080 | TCP port to listen on |');
    expect(user).toContain('What are the defaults of port and workers?');
    expect(user).not.toContain('SCRIPT-NOISE');
  });

  it('uses the configured model, is retried by the provider on overload, and notes a partial window', async () => {
    fake = await startFakeAnthropicServer({
      script: [reply.overloaded(), reply.text('First part answered.')],
    });
    server.route('/long', page(generateDocsHtml(150_000)));
    const run = await runToolOk<WebFetchOutput>(
      makeTool({ settings: { ...makeToolSettings(), model: 'claude-sonnet-5-5' }, modelWindowChars: 50_000 }),
      { url: url('/long'), prompt: 'x' },
      context(client(fake)),
    );
    expect(fake.messageRequests).toHaveLength(2);
    expect(fake.messageRequests[1]?.body.model).toBe('claude-sonnet-5-5');
    expect(JSON.stringify(fake.messageRequests[1]?.body.messages)).toContain(
      'this is part of the page: characters 0–',
    );
    expect(run.data.result).toMatch(
      /^First part answered\.\n\n\[The page continues: this covers characters 0–\d+ of \d+\. Call WebFetch again with the same url and offset \d+/,
    );
    expect(run.data.nextOffset).toBeGreaterThan(40_000);
  });

  it('a model that fails for good is an error naming the model step', async () => {
    fake = await startFakeAnthropicServer({ script: [reply.unauthorized()] });
    server.route('/p', page('<p>x</p>'));
    const run = await runTool(makeTool(), { url: url('/p'), prompt: 'x' }, context(client(fake)));
    expect(run.error).toMatch(/The page was fetched, but the model answering the prompt \(haiku\) failed/);
  });

  it('model "none" returns the Markdown even with a client', async () => {
    fake = await startFakeAnthropicServer({ script: [] });
    server.route('/p', page('<p>plain page</p>'));
    const run = await runToolOk<WebFetchOutput>(
      makeTool({ settings: { ...makeToolSettings(), model: 'none' } }),
      { url: url('/p'), prompt: 'x' },
      context(client(fake)),
    );
    expect(run.data.result).toMatch(/^\[No model is configured to answer prompts for WebFetch/);
    expect(run.data.result).toContain('plain page');
    expect(fake.messageRequests).toHaveLength(0);
  });
});

function makeToolSettings() {
  return { allowPrivateHosts: ['docs.test'], allowHttpHosts: ['docs.test'] };
}
