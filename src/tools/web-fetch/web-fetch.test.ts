/**
 * WebFetch through the real runtime against a real HTTP server on 127.0.0.1 serving real HTML:
 * conversion, redirects (same host followed, another host a notice), compression, size caps and
 * offset windows, binary refusal, dropped connections, slow and stalled responses, and the cache.
 * The address guard and the https upgrade are in web-fetch-network.test.ts, the model step in
 * web-fetch-model.test.ts. Host names other than 127.0.0.1 reach the server through an injected
 * resolver (src/testing/web-fetch-world.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDocsHtml } from '../../testing/generate-docs-html.js';
import {
  compressed,
  dripping,
  type LocalWebServer,
  page,
  redirect,
  silent,
  stalled,
} from '../../testing/local-web-server.js';
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

describe('WebFetch: HTML to Markdown (no model configured)', () => {
  it('converts a docs page: GFM table, fenced code with its language, absolute links, no noise', async () => {
    server.route('/guide/config.html', page(DOCS));
    const run = await runToolOk<WebFetchOutput>(
      makeTool(),
      { url: url('/guide/config.html'), prompt: 'List the options' },
      context(),
    );
    const r = run.data.result;
    expect(r).toMatch(/^\[No model is available to answer the prompt, so this is the page content itself/);
    expect(r).toContain('Read it to answer: List the options');
    expect(r).toContain('# Configuring the widget server');
    expect(r).toContain('| Option | Type | Default | Meaning |');
    expect(r).toContain('| `port` | integer | 8080 | TCP port to listen on |');
    expect(r).toContain('```toml\n[server]\nport = 9090');
    expect(r).toContain('widget-server --config widget.toml');
    expect(r).toContain(`[the installation guide](${url('/guide/install.html')})`);
    expect(r).toContain('[full specification](https://example.org/spec "Specification")');
    expect(r).toContain(`![Architecture diagram](${url('/img/diagram.png')})`);
    expect(r).toContain('tiny pixel');
    expect(r).not.toContain('data:image');
    expect(r).toContain('~threads~');
    expect(r).toContain('Grüße');
    expect(r).toContain('東京');
    for (const noise of [
      'SCRIPT-NOISE',
      'NAV-NOISE',
      'BREADCRUMB-NOISE',
      'ARIA-HIDDEN-NOISE',
      'FORM-NOISE',
      'hidden-style-marker',
    ])
      expect(r, noise).not.toContain(noise);
    expect(run.data).toMatchObject({
      bytes: Buffer.byteLength(DOCS),
      code: 200,
      codeText: 'OK',
      url: url('/guide/config.html'),
    });
    expect(run.data.durationMs).toBeGreaterThanOrEqual(0);
    expect(run.data.nextOffset).toBeUndefined();
    expect(run.content).toBe(r);
  });

  it('asks for Markdown first, names itself Gantry-User and offers gzip, deflate and br', async () => {
    server.route('/h', page('<p>x</p>'));
    await runToolOk(makeTool(), { url: url('/h'), prompt: 'x' }, context());
    const headers = server.requests[0]?.headers ?? {};
    expect(String(headers.accept)).toMatch(/^text\/markdown, text\/html;q=0\.9/);
    expect(String(headers['user-agent'])).toMatch(/^Gantry-User\//);
    expect(String(headers['accept-encoding'])).toBe('gzip, deflate, br');
  });

  it.each([
    [
      'text/markdown; charset=utf-8',
      '# Title\n\n| a | b |',
      '# Title\n\n| a | b |',
      'Markdown passes through',
    ],
    [
      'application/json',
      '{"name":"widget","version":"1.2.3"}',
      '{"name":"widget","version":"1.2.3"}',
      'JSON passes through',
    ],
    [
      'text/plain; charset=iso-8859-1',
      Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      'café',
      'the declared charset is used',
    ],
    [
      '',
      '<!DOCTYPE html><html><body><h2>Sniffed</h2></body></html>',
      '## Sniffed',
      'no content type: HTML is sniffed',
    ],
  ])('%s → text (%s)', async (type, body, expected, _reason) => {
    server.route('/t', page(body as string | Buffer, type));
    const run = await runToolOk<WebFetchOutput>(makeTool(), { url: url('/t'), prompt: 'x' }, context());
    expect(run.data.result).toContain(expected);
  });

  it.each(['gzip', 'deflate', 'br'] as const)('decodes a %s body', async (encoding) => {
    server.route(`/z-${encoding}`, compressed(DOCS, encoding));
    const run = await runToolOk<WebFetchOutput>(
      makeTool(),
      { url: url(`/z-${encoding}`), prompt: 'x' },
      context(),
    );
    expect(run.data.result).toContain('| `log_level` | string | "info" | One of debug, info, warn |');
    expect(run.data.bytes).toBe(Buffer.byteLength(DOCS));
  });
});

describe('WebFetch: redirects', () => {
  it('follows a chain of same-host redirects (relative and absolute) to the page', async () => {
    server.route('/r1', redirect('/r2', 301));
    server.route('/r2', redirect(url('/r3'), 302));
    server.route('/r3', redirect('final.html', 307));
    server.route('/final.html', page('<h1>Arrived</h1>'));
    const run = await runToolOk<WebFetchOutput>(makeTool(), { url: url('/r1'), prompt: 'x' }, context());
    expect(run.data.result).toContain('# Arrived');
    expect(run.data.code).toBe(200);
    expect(server.requests.map((r) => r.url)).toEqual(['/r1', '/r2', '/r3', '/final.html']);
  });

  it('does not follow a redirect to another host: the notice names both URLs and the other host is never asked', async () => {
    server.route('/moved', redirect(url('/new-home', 'b.test'), 301));
    const run = await runToolOk<WebFetchOutput>(
      makeTool(),
      { url: url('/moved', 'a.test'), prompt: 'Summarise' },
      context(),
    );
    expect(run.data.result).toContain('redirects to another host');
    expect(run.data.result).toContain(`Original URL: ${url('/moved', 'a.test')}`);
    expect(run.data.result).toContain(`Redirect URL: ${url('/new-home', 'b.test')}`);
    expect(run.data.result).toContain('- prompt: Summarise');
    expect(run.data).toMatchObject({ code: 301, bytes: 0 });
    expect(server.requests.map((r) => r.headers.host)).toEqual([`a.test:${server.port}`]);
  });

  it.each([
    ['www. added', (p: number) => `http://www.a.test:${p}/x`],
    ['another port', (p: number) => `http://a.test:${p + 1}/x`],
    ['a subdomain', (p: number) => `http://sub.a.test:${p}/x`],
  ])('a redirect to %s is another site (notice)', async (_what, target) => {
    server.route('/hop', redirect(target(server.port)));
    const run = await runToolOk<WebFetchOutput>(
      makeTool(),
      { url: url('/hop', 'a.test'), prompt: 'x' },
      context(),
    );
    expect(run.data.result).toContain(`Redirect URL: ${target(server.port)}`);
    expect(server.requests).toHaveLength(1);
  });

  it('stops an endless same-host redirect loop with an error', async () => {
    server.route('/loop', redirect('/loop'));
    const run = await runTool(makeTool(), { url: url('/loop'), prompt: 'x' }, context());
    expect(run.ok).toBe(false);
    expect(run.error).toMatch(/redirected more than 10 times/);
    expect(server.requests).toHaveLength(11);
  });
});

describe('WebFetch: size caps and offset windows', () => {
  it('refuses a body over the byte cap, with or without content-length, and a compressed bomb', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    server.route('/big', page(big, 'text/plain'));
    server.route('/big-chunked', dripping([big.slice(0, 2_000_000), big.slice(2_000_000)], 1));
    server.route('/bomb', compressed('a'.repeat(8 * 1024 * 1024), 'gzip', 'text/plain'));
    const tool = makeTool({ limits: { maxBytes: 2 * 1024 * 1024 } });
    for (const path of ['/big', '/big-chunked', '/bomb']) {
      const run = await runTool(tool, { url: url(path), prompt: 'x' }, context());
      expect(run.ok, path).toBe(false);
      expect(run.error, path).toMatch(/is larger than 2 MB/);
    }
  });

  it('returns a long page in windows: nextOffset continues it, the last window ends it, the page is fetched once', async () => {
    const html = generateDocsHtml(300_000);
    server.route('/long', page(html));
    const tool = makeTool();
    const ctx = context();
    const windows: string[] = [];
    let offset: number | undefined;
    for (let i = 0; i < 40; i++) {
      const input: Record<string, unknown> = { url: url('/long'), prompt: 'x' };
      if (offset !== undefined) input.offset = offset;
      const run = await runToolOk<WebFetchOutput>(tool, input, ctx);
      const body = run.data.result
        .replace(/^\[No model[^\n]*\]\n\n/, '')
        .replace(/\n\n\[The page continues[^\n]*\]$/, '');
      windows.push(body);
      expect(body.length).toBeLessThanOrEqual(40_000);
      if (run.data.nextOffset === undefined) break;
      expect(run.data.result).toContain(`offset ${run.data.nextOffset}`);
      offset = run.data.nextOffset;
    }
    expect(windows.length).toBeGreaterThan(2);
    const whole = windows.join('');
    expect(whole).toContain('## Section 1: configuring feature 1');
    const last = Number(/Section (\d+):[^\n]*\n(?![\s\S]*Section \d+:)/.exec(whole)?.[1]);
    expect(html).toContain(`Section ${last}:`);
    expect(html).not.toContain(`Section ${last + 1}:`);
    expect(server.requests).toHaveLength(1);
    const past = await runTool(tool, { url: url('/long'), prompt: 'x', offset: whole.length + 5 }, ctx);
    expect(past.error).toMatch(/past the end of the page/);
  });
});

describe('WebFetch: what it refuses', () => {
  it.each([
    ['image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
    ['application/pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3'), 'application/pdf'],
    [
      'application/octet-stream',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1]),
      'application/octet-stream',
    ],
    ['application/zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]), 'application/zip'],
  ])('a %s body is refused as binary', async (type, body, named) => {
    server.route('/bin', page(body, type));
    const run = await runTool(makeTool(), { url: url('/bin'), prompt: 'x' }, context());
    expect(run.ok).toBe(false);
    expect(run.error).toContain('is a binary file');
    expect(run.error).toContain(named);
  });

  it('an HTTP error status is an error result with the start of the page', async () => {
    server.route('/missing', page('<h1>Not here</h1><p>Try the index.</p>', 'text/html', 404));
    const run = await runTool(makeTool(), { url: url('/missing'), prompt: 'x' }, context());
    expect(run.error).toMatch(/answered HTTP 404 Not Found/);
    expect(run.error).toContain('Try the index.');
  });

  it.each([
    ['ftp://docs.test/file', 'http and https URLs only'],
    ['not a url', 'is not a valid URL'],
    ['https://user:secret@docs.test/', 'user name or password'],
    [`https://docs.test/${'a'.repeat(2100)}`, 'at most 2000'],
  ])('%s is an input error (%s)', async (bad, phrase) => {
    const run = await runTool(makeTool(), { url: bad, prompt: 'x' }, context());
    expect(run.error).toContain(phrase);
    expect(server.requests).toHaveLength(0);
  });
});

describe('WebFetch: dropped connections', () => {
  // A server closes an idle kept-alive connection while the tool is busy converting the previous
  // page; the next GET goes out on the dead socket and fails before any response. Found by the
  // 2 MB benchmark (every third fetch failed with ECONNRESET / "other side closed").
  it('a connection closed before any response is retried once on a fresh connection', async () => {
    let calls = 0;
    server.route('/dropped-once', (req, res) => {
      calls += 1;
      if (calls === 1) req.socket.destroy();
      else void page('<p>Second time lucky</p>')(req, res, '');
    });
    const run = await runToolOk<WebFetchOutput>(
      makeTool(),
      { url: url('/dropped-once'), prompt: 'x' },
      context(),
    );
    expect(run.data.result).toContain('Second time lucky');
    expect(calls).toBe(2);
  });

  it('a server that always drops the connection is an error after two attempts', async () => {
    server.route('/dropped', (req) => {
      req.socket.destroy();
    });
    const run = await runTool(makeTool(), { url: url('/dropped'), prompt: 'x' }, context());
    expect(run.ok).toBe(false);
    expect(run.error).toMatch(/The request to docs\.test:\d+ failed/);
    expect(server.requests.filter((r) => r.url === '/dropped')).toHaveLength(2);
  });
});

describe('WebFetch: timeouts', () => {
  it('a slow body that keeps arriving is read to its end', async () => {
    server.route('/slow', dripping(['one ', 'two ', 'three'], 40));
    const run = await runToolOk<WebFetchOutput>(
      makeTool({ limits: { bodyIdleTimeoutMs: 1000 } }),
      { url: url('/slow'), prompt: 'x' },
      context(),
    );
    expect(run.data.result).toContain('one two three');
  });

  it.each([
    [
      '/stalled',
      stalled('<html><body><p>Start of the page'),
      { bodyIdleTimeoutMs: 300 },
      /stopped sending the page: no data arrived for 0\.3 s/,
    ],
    ['/silent', silent(), { headersTimeoutMs: 300 }, /sent no response within 0\.3 s/],
    [
      '/endless',
      dripping(
        Array.from({ length: 1000 }, () => 'tick '),
        50,
      ),
      { totalTimeoutMs: 400 },
      /took longer than 0\.4 s/,
    ],
  ])('%s ends with a clear timeout error', async (path, handler, limits, message) => {
    server.route(path, handler);
    const run = await runTool(makeTool({ limits }), { url: url(path), prompt: 'x' }, context());
    expect(run.ok).toBe(false);
    expect(run.error).toMatch(message);
  });
});

describe('WebFetch: cache', () => {
  it('a second call for the same URL (any prompt) is answered from the cache', async () => {
    server.route('/cached', page('<p>cached page</p>'));
    const tool = makeTool();
    await runToolOk(tool, { url: url('/cached'), prompt: 'one' }, context());
    const again = await runToolOk<WebFetchOutput>(tool, { url: url('/cached'), prompt: 'two' }, context());
    expect(again.data.result).toContain('cached page');
    expect(server.requests).toHaveLength(1);
  });

  it('CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS=0 turns the cache off', async () => {
    server.route('/uncached', page('<p>fresh</p>'));
    const tool = makeTool({ env: { CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS: '0' } });
    await runToolOk(tool, { url: url('/uncached'), prompt: 'x' }, context());
    await runToolOk(tool, { url: url('/uncached'), prompt: 'x' }, context());
    expect(server.requests).toHaveLength(2);
  });
});
