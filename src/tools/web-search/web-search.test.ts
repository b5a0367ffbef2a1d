/**
 * WebSearch through the real runtime against local fakes of each provider's real API shape: Brave
 * (`GET /res/v1/web/search`, `web.results[]`), Tavily (`POST /search`, `results[]`), SearXNG
 * (`GET /search?format=json`, `results[]`) on a local HTTP server, and Anthropic's server-side
 * search (`server_tool_use` / `web_search_tool_result` blocks) on the fake Messages API. Also the
 * domain lists, the session cap (shared with subagents), availability and its diagnostics.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelClient } from '../../core/model-client.js';
import { AnthropicModelClient } from '../../model/anthropic/client.js';
import { assembleToolPool, createChildContext, createSessionServices } from '../../runtime/index.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply, serverToolUse, text, webSearchResult } from '../../testing/fake-model-script.js';
import { json, type LocalWebServer, startLocalWebServer } from '../../testing/local-web-server.js';
import { makeTempDir, makeToolContext, runTool, runToolOk } from '../../testing/tool-harness.js';
import { webSearchDiagnostics } from './select-provider.js';
import { createWebSearchTool, type WebSearchOutput } from './web-search.tool.js';

let api: LocalWebServer;
let temp: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  api = await startLocalWebServer();
  temp = await makeTempDir('gantry-websearch-');
});
afterAll(async () => {
  await api.close();
  await temp.cleanup();
});
afterEach(() => {
  api.requests.length = 0;
});

const context = (modelClient?: ModelClient) =>
  makeToolContext({ cwd: temp.dir, services: createSessionServices(modelClient ? { modelClient } : {}) });

/** Hits on several hosts, so filtering is visible. */
const HITS = [
  {
    title: 'Node.js streams',
    url: 'https://nodejs.org/api/stream.html',
    text: 'The stream module provides an API.',
  },
  {
    title: 'Streams guide',
    url: 'https://developer.mozilla.org/en-US/docs/Web/API/Streams_API',
    text: 'Web streams.',
  },
  { title: 'Blog post', url: 'https://blog.example.com/streams', text: 'My take on streams.' },
];

function braveRoute() {
  api.route('/res/v1/web/search', (req, res) => {
    if (req.headers['x-subscription-token'] !== 'brave-key') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', status: 401 } }),
      );
      return;
    }
    const q = new URL(req.url ?? '', 'http://x').searchParams.get('q');
    void json({
      type: 'search',
      query: { original: q, more_results_available: true },
      web: {
        type: 'search',
        family_friendly: true,
        results: HITS.map((h) => ({
          type: 'search_result',
          title: h.title.replace('streams', '<strong>streams</strong>'),
          url: h.url,
          description: `<strong>${h.text}</strong>`,
          is_source_local: false,
          language: 'en',
          profile: { name: new URL(h.url).hostname },
        })),
      },
    })(req, res, '');
  });
}

function tavilyRoute() {
  api.route('/search', (req, res, body) => {
    if (req.method === 'POST') {
      if (req.headers.authorization !== 'Bearer tvly-key') {
        void json({ detail: { error: 'Unauthorized: missing or invalid API key.' } }, 401)(req, res, body);
        return;
      }
      const parsed = JSON.parse(body) as { query: string };
      void json({
        query: parsed.query,
        follow_up_questions: null,
        answer: null,
        images: [],
        results: HITS.map((h, i) => ({
          title: h.title,
          url: h.url,
          content: h.text,
          score: 0.9 - i / 10,
          raw_content: null,
        })),
        response_time: 0.42,
      })(req, res, body);
      return;
    }
    // SearXNG answers GET /search?format=json.
    const params = new URL(req.url ?? '', 'http://x').searchParams;
    if (params.get('format') !== 'json') {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<h1>403 Forbidden</h1>');
      return;
    }
    void json({
      query: params.get('q'),
      number_of_results: 0,
      results: HITS.map((h) => ({
        url: h.url,
        title: h.title,
        content: h.text,
        engine: 'duckduckgo',
        engines: ['duckduckgo'],
        score: 1,
        category: 'general',
      })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    })(req, res, '');
  });
}

const braveEnv = () => ({ BRAVE_API_KEY: 'brave-key', BRAVE_SEARCH_BASE_URL: api.url('') });
const tavilyEnv = () => ({ TAVILY_API_KEY: 'tvly-key', TAVILY_BASE_URL: api.url('') });
const searxEnv = () => ({ SEARXNG_URL: api.url('') });

describe('WebSearch over the HTTP providers', () => {
  beforeAll(() => {
    braveRoute();
    tavilyRoute();
  });

  it.each([
    ['brave', braveEnv, 'GET', /^\/res\/v1\/web\/search\?q=node\+streams&count=10$/],
    ['tavily', tavilyEnv, 'POST', /^\/search$/],
    ['searxng', searxEnv, 'GET', /^\/search\?q=node\+streams&format=json$/],
  ])('%s: titles, URLs and snippets, in the structured shape', async (_name, env, method, path) => {
    const tool = createWebSearchTool({ env: env() });
    const run = await runToolOk<WebSearchOutput>(tool, { query: 'node streams' }, context(), {
      toolUseId: 'toolu_ws1',
    });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]?.method).toBe(method);
    expect(api.requests[0]?.url).toMatch(path);
    expect(run.data.query).toBe('node streams');
    expect(run.data.searchCount).toBe(1);
    expect(run.data.results).toEqual([
      {
        tool_use_id: 'toolu_ws1',
        content: [
          {
            title: 'Node.js streams',
            url: 'https://nodejs.org/api/stream.html',
            snippet: 'The stream module provides an API.',
          },
          {
            title: 'Streams guide',
            url: 'https://developer.mozilla.org/en-US/docs/Web/API/Streams_API',
            snippet: 'Web streams.',
          },
          { title: 'Blog post', url: 'https://blog.example.com/streams', snippet: 'My take on streams.' },
        ],
      },
    ]);
    expect(typeof run.data.durationSeconds).toBe('number');
    const textOut = String(run.content);
    expect(textOut).toMatch(
      /^Web search results for "node streams":\n\n1\. Node\.js streams\n {3}https:\/\/nodejs\.org\/api\/stream\.html\n {3}The stream module provides an API\./,
    );
    expect(textOut).toContain('3. Blog post');
    expect(textOut).toContain('"Sources:"');
  });

  it('Tavily gets its key as a bearer token and the domain lists as its own parameters', async () => {
    const tool = createWebSearchTool({ env: tavilyEnv() });
    await runToolOk(
      tool,
      { query: 'streams', allowed_domains: ['NodeJS.org', 'https://developer.mozilla.org/en-US/'] },
      context(),
    );
    expect(JSON.parse(api.requests[0]?.body ?? '{}')).toMatchObject({
      query: 'streams',
      max_results: 10,
      include_domains: ['nodejs.org', 'developer.mozilla.org'],
    });
  });

  it('allowed_domains keeps only those sites (subdomains included), whatever the provider returned', async () => {
    const tool = createWebSearchTool({ env: braveEnv() });
    const run = await runToolOk<WebSearchOutput>(
      tool,
      { query: 'streams', allowed_domains: ['example.com'] },
      context(),
    );
    expect(new URL(api.requests[0]?.url ?? '', 'http://x').searchParams.get('q')).toBe(
      'streams (site:example.com)',
    );
    const group = run.data.results[0];
    expect(typeof group === 'object' && group.content.map((h) => h.url)).toEqual([
      'https://blog.example.com/streams',
    ]);
  });

  it('blocked_domains drops those sites', async () => {
    const tool = createWebSearchTool({ env: searxEnv() });
    const run = await runToolOk<WebSearchOutput>(
      tool,
      { query: 'streams', blocked_domains: ['nodejs.org', '*.example.com'] },
      context(),
    );
    expect(new URL(api.requests[0]?.url ?? '', 'http://x').searchParams.get('q')).toBe(
      'streams -site:nodejs.org -site:example.com',
    );
    const group = run.data.results[0];
    expect(typeof group === 'object' && group.content.map((h) => h.url)).toEqual([
      'https://developer.mozilla.org/en-US/docs/Web/API/Streams_API',
    ]);
  });

  it.each([
    [{ query: 'xy', allowed_domains: ['a.com'], blocked_domains: ['b.com'] }, 'not both', 'both lists'],
    [{ query: 'x' }, '>=2 characters', 'a one-character query'],
    [
      { query: 'ok', allowed_domains: ['not a domain'] },
      'is not a domain name',
      'an entry that is no domain',
    ],
  ])('%j is an input error (%s; %s)', async (input, phrase, _reason) => {
    const run = await runTool(createWebSearchTool({ env: braveEnv() }), input, context());
    expect(run.ok).toBe(false);
    expect(run.error).toContain(phrase);
    expect(api.requests).toHaveLength(0);
  });

  it('a refused key names the variable; the SearXNG instance without JSON says what to enable', async () => {
    const brave = await runTool(
      createWebSearchTool({ env: { ...braveEnv(), BRAVE_API_KEY: 'wrong' } }),
      { query: 'x y' },
      context(),
    );
    expect(brave.error).toBe('Brave Search refused the request (HTTP 401): check the key in BRAVE_API_KEY.');
    api.route('/nojson/search', (_req, res) => {
      res.writeHead(403);
      res.end();
    });
    const searx = await runTool(
      createWebSearchTool({ env: { SEARXNG_URL: api.url('/nojson') } }),
      { query: 'x y' },
      context(),
    );
    expect(searx.error).toMatch(/refused the request \(HTTP 403\): the instance must allow the json format/);
  });

  it('a 429 is retried, after the wait the API asks for', async () => {
    let calls = 0;
    api.route('/flaky/search', (req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { 'retry-after': '0' });
        res.end();
        return;
      }
      void json({ results: [{ title: 'Ok', url: 'https://ok.example/', content: '' }] })(req, res, '');
    });
    const run = await runToolOk<WebSearchOutput>(
      createWebSearchTool({ env: { SEARXNG_URL: api.url('/flaky') } }),
      { query: 'x y' },
      context(),
    );
    expect(calls).toBe(2);
    expect(run.data.results).toEqual([
      { tool_use_id: expect.any(String), content: [{ title: 'Ok', url: 'https://ok.example/' }] },
    ]);
  });

  it('the session cap: after N calls a notice, no request; subagents count against the same cap', async () => {
    const tool = createWebSearchTool({
      env: { ...braveEnv(), CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION: '2' },
    });
    const session = context();
    await runToolOk(tool, { query: 'one' }, session);
    const child = createChildContext(session, { agentId: 'a1', tools: [tool] });
    await runToolOk(tool, { query: 'two' }, child);
    const third = await runToolOk<WebSearchOutput>(tool, { query: 'three' }, session);
    expect(api.requests).toHaveLength(2);
    expect(third.data.searchCount).toBeUndefined();
    expect(String(third.content)).toContain('The web search limit of this session (2 searches) is reached');
    // Another session starts from zero.
    await runToolOk(tool, { query: 'other session' }, context());
    expect(api.requests).toHaveLength(3);
  });
});

describe("WebSearch over Anthropic's server-side search (fake Messages API)", () => {
  let fake: FakeAnthropicServer;
  afterEach(async () => {
    await fake.close();
  });
  const client = (f: FakeAnthropicServer) =>
    new AnthropicModelClient({ apiKey: 'k', baseURL: f.url, retry: { baseDelayMs: 1, jitter: 0 } });

  it('sends the server tool with the domain list, and reads hits, searches and text from the blocks', async () => {
    fake = await startFakeAnthropicServer({
      script: [
        reply.message([
          serverToolUse('web_search', { query: 'node streams' }, { id: 'srvtoolu_a' }),
          webSearchResult([
            { title: 'Stream | Node.js', url: 'https://nodejs.org/api/stream.html', page_age: '2026-05-01' },
            { title: 'Other', url: 'https://elsewhere.example/streams' },
          ]),
          text('Node.js documents streams in its API reference.'),
          serverToolUse('web_search', { query: 'node streams backpressure' }, { id: 'srvtoolu_b' }),
          webSearchResult({ error_code: 'max_uses_exceeded' }),
        ]),
      ],
    });
    const tool = createWebSearchTool({ env: {}, modelProvider: 'anthropic' });
    expect(tool.isEnabled()).toBe(true);
    const run = await runToolOk<WebSearchOutput>(
      tool,
      { query: 'node streams', allowed_domains: ['nodejs.org'] },
      context(client(fake)),
    );
    const body = fake.messageRequests[0]?.body;
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['nodejs.org'] },
    ]);
    expect(body.model).toBe('claude-haiku-5-5');
    expect(JSON.stringify(body.messages)).toContain('node streams');
    expect(run.data.searchCount).toBe(2);
    expect(run.data.results).toEqual([
      {
        tool_use_id: 'srvtoolu_a',
        content: [{ title: 'Stream | Node.js', url: 'https://nodejs.org/api/stream.html' }],
      },
      'Node.js documents streams in its API reference.',
      'Web search error: max_uses_exceeded',
    ]);
  });

  it('on a session whose model client is not Anthropic, the call says what to configure', async () => {
    fake = await startFakeAnthropicServer({ script: [] });
    const notAnthropic: ModelClient = {
      ...client(fake),
      provider: 'openai',
      stream: client(fake).stream,
      countTokens: async () => 0,
    };
    const run = await runTool(
      createWebSearchTool({ env: {}, modelProvider: 'anthropic' }),
      { query: 'x y' },
      context(notAnthropic),
    );
    expect(run.error).toMatch(/needs the session's model to be on the Anthropic API, but it is on openai/);
  });
});

describe('WebSearch availability and diagnostics', () => {
  it.each([
    [{ env: {} }, false, undefined, /no search provider is configured/, 'nothing configured'],
    [
      { env: {}, modelProvider: 'openai' },
      false,
      undefined,
      /no search provider/,
      'an OpenAI session without keys',
    ],
    [{ env: {}, modelProvider: 'anthropic' }, true, 'anthropic', /server-side/, 'an Anthropic session'],
    [
      { env: { ANTHROPIC_API_KEY: 'k' } },
      true,
      'anthropic',
      /ANTHROPIC_API_KEY/,
      'judged from the environment',
    ],
    [
      { env: { ANTHROPIC_API_KEY: 'k', GANTRY_PROVIDER: 'openai' } },
      false,
      undefined,
      /no search provider/,
      'the env names another provider',
    ],
    [
      { env: { TAVILY_API_KEY: 't', BRAVE_API_KEY: 'b' } },
      true,
      'brave',
      /BRAVE_API_KEY is set/,
      'Brave before Tavily',
    ],
    [
      { env: { TAVILY_API_KEY: 't', BRAVE_API_KEY: 'b' }, settings: { provider: 'tavily' as const } },
      true,
      'tavily',
      /settings webSearch.provider/,
      'settings pick one',
    ],
    [
      { env: { TAVILY_API_KEY: 't' }, settings: { provider: 'brave' as const } },
      false,
      undefined,
      /webSearch.provider is brave, but BRAVE_API_KEY is not set/,
      'a named provider that is not available: off, no fallback',
    ],
    [
      { env: { GANTRY_WEB_SEARCH_PROVIDER: 'bing' } },
      false,
      undefined,
      /"bing", which is not one of/,
      'an unknown provider name',
    ],
    [
      { env: { SEARXNG_URL: 'file:///etc/passwd' } },
      false,
      undefined,
      /no search provider/,
      'a SearXNG URL that is not http(s)',
    ],
  ])('%j → enabled %s (%s; %s)', (config, enabled, provider, reason, _why) => {
    const d = webSearchDiagnostics(config);
    expect(d.enabled).toBe(enabled);
    expect(d.provider).toBe(provider);
    expect(d.reason).toMatch(reason);
    expect(d.checks.map((c) => c.provider)).toEqual(['anthropic', 'brave', 'tavily', 'searxng']);
    expect(createWebSearchTool(config).isEnabled()).toBe(enabled);
  });

  it('a disabled WebSearch is not in the tool pool the model sees', () => {
    const off = assembleToolPool({ builtIn: [createWebSearchTool({ env: {} })] });
    const on = assembleToolPool({ builtIn: [createWebSearchTool({ env: {}, modelProvider: 'anthropic' })] });
    expect(off.callable.map((t) => t.name)).toEqual([]);
    expect(on.callable.map((t) => t.name)).toEqual(['WebSearch']);
  });
});
