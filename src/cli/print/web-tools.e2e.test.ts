/**
 * WebFetch and WebSearch in `gantry -p` as a real process: the tools are in the session's pool,
 * WebFetch reads a real page from a local HTTP server (allowed through `--settings` `webFetch`)
 * and answers its prompt through the session's model client (the fake Anthropic server), and
 * WebSearch is offered only when a provider is available (Anthropic's server-side search on the
 * Anthropic provider; on the OpenAI provider only with a search provider such as a SearXNG
 * instance, here a local fake of its JSON API).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../../testing/fake-openai-server.js';
import { json, type LocalWebServer, page, startLocalWebServer } from '../../testing/local-web-server.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

/** The web tools are deferred behind ToolSearch by default; these tests want them in the first request. */
const NO_TOOL_SEARCH = { ENABLE_TOOL_SEARCH: 'false' };

const GUIDE = `<!DOCTYPE html><html><head><title>Setup guide</title><script>var tracking = 1;</script></head>
<body><nav><a href="/">Home</a></nav><main><h1>Setup guide</h1>
<p>The server listens on port <strong>8080</strong> by default.</p>
<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>port</td><td>8080</td></tr></tbody></table>
</main></body></html>`;

let world: PrintWorld;
let web: LocalWebServer;
let anthropic: FakeAnthropicServer | undefined;
let openai: FakeOpenAIServer | undefined;

beforeEach(async () => {
  world = makePrintWorld();
  web = await startLocalWebServer({ '/guide.html': page(GUIDE) });
});
afterEach(async () => {
  await anthropic?.close();
  await openai?.close();
  anthropic = undefined;
  openai = undefined;
  await web.close();
  world.cleanup();
});

/** `--settings` JSON that lets WebFetch reach the local server over http. */
const LOCAL_WEB_SETTINGS = JSON.stringify({
  webFetch: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
});

const toolNames = (body: any): string[] =>
  (body.tools ?? []).map((t: any) => t.name ?? t.function?.name).filter(Boolean);

describe('gantry -p: WebFetch', () => {
  it('fetches a local page, answers the prompt through the session model, and returns the answer as the tool result', async () => {
    const pageUrl = web.url('/guide.html');
    anthropic = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('WebFetch', { url: pageUrl, prompt: 'Which port does the server use?' }),
        reply.text('The guide says the server listens on port 8080.'),
        reply.text('It uses port 8080.'),
      ],
    });
    const r = await runGantry(
      [
        '-p',
        '--output-format',
        'json',
        '--allowedTools',
        'WebFetch',
        '--settings',
        LOCAL_WEB_SETTINGS,
        'port?',
      ],
      { cwd: world.project, env: gantryEnv(world, anthropic, NO_TOOL_SEARCH) },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      result: 'It uses port 8080.',
      is_error: false,
      num_turns: 2,
    });
    const [first, promptStep, last] = anthropic.messageRequests.map((q) => q.body);
    expect(toolNames(first)).toEqual(expect.arrayContaining(['WebFetch', 'WebSearch']));
    // The prompt step: the page as Markdown (table kept, script and navigation dropped) and the prompt.
    const stepText = JSON.stringify(promptStep.messages);
    expect(stepText).toContain('# Setup guide');
    expect(stepText).toContain('| port | 8080 |');
    expect(stepText).toContain('Which port does the server use?');
    expect(stepText).not.toContain('tracking');
    expect(promptStep.tools ?? []).toEqual([]);
    expect(JSON.stringify(last.messages)).toContain('The guide says the server listens on port 8080.');
    expect(web.requests.filter((q) => q.url === '/guide.html')).toHaveLength(1);
  });

  it('without the settings allowance a loopback address is refused and never contacted', async () => {
    anthropic = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [
        reply.toolUse('WebFetch', { url: web.url('/guide.html'), prompt: 'x' }),
        reply.text('Blocked.'),
      ],
    });
    const r = await runGantry(['-p', '--output-format', 'json', '--allowedTools', 'WebFetch', 'x'], {
      cwd: world.project,
      env: gantryEnv(world, anthropic, NO_TOOL_SEARCH),
    });
    expect(r.code).toBe(0);
    const result = JSON.stringify(anthropic.messageRequests[1]?.body.messages.at(-1));
    expect(result).toContain('"is_error":true');
    expect(result).toMatch(/127\.0\.0\.1/);
    expect(web.requests).toHaveLength(0);
  });
});

describe('gantry -p: WebSearch is offered only with a provider', () => {
  it('on the OpenAI provider: absent with no search provider, present and working with a SearXNG instance', async () => {
    web.route('/search', (req, res) => {
      const q = new URL(req.url ?? '', 'http://x').searchParams.get('q');
      void json({
        query: q,
        results: [
          {
            url: 'https://nodejs.example/streams',
            title: 'Streams guide',
            content: 'Readable and writable.',
          },
        ],
      })(req, res, '');
    });
    openai = await startFakeOpenAIServer({
      apiKey: 'sk-openai-test',
      script: [
        reply.text('No search here.'),
        reply.toolUse('WebSearch', { query: 'node streams' }),
        reply.text('Found the guide.'),
      ],
    });
    const env = (extra: Record<string, string | undefined>) =>
      gantryEnv(world, undefined, {
        ...NO_TOOL_SEARCH,
        OPENAI_API_KEY: 'sk-openai-test',
        OPENAI_BASE_URL: `${openai?.url}/v1`,
        ...extra,
      });
    const args = [
      '-p',
      '--provider',
      'openai',
      '--model',
      'gpt-4.1',
      '--output-format',
      'json',
      '--allowedTools',
      'WebSearch',
      'x',
    ];

    // An Anthropic key in the environment does not make Anthropic's search available: the
    // session's model is on OpenAI.
    const without = await runGantry(args, {
      cwd: world.project,
      env: env({ ANTHROPIC_API_KEY: 'sk-unused' }),
    });
    expect(without.code).toBe(0);
    const firstTools = toolNames(openai.modelRequests[0]?.body);
    expect(firstTools).toContain('WebFetch');
    expect(firstTools).not.toContain('WebSearch');

    const withSearx = await runGantry(args, { cwd: world.project, env: env({ SEARXNG_URL: web.url('') }) });
    expect(withSearx.code).toBe(0);
    expect(JSON.parse(withSearx.stdout)).toMatchObject({ result: 'Found the guide.', is_error: false });
    expect(toolNames(openai.modelRequests[1]?.body)).toContain('WebSearch');
    const toolResult = JSON.stringify(openai.modelRequests[2]?.body.messages);
    expect(toolResult).toContain('Streams guide');
    expect(toolResult).toContain('https://nodejs.example/streams');
    expect(web.requests.some((q) => q.url.startsWith('/search?q=node+streams'))).toBe(true);
  });
});
