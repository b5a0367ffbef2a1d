/**
 * WebBrowser against pages served on 127.0.0.1, with Debian's real Chromium (one browser for the
 * whole file, started by the first call through the session's resources and closed when the
 * session's services are disposed): navigate and read the text, the accessibility tree with refs,
 * a click that changes the page, typing into a form and submitting it, a screenshot as a PNG image
 * block, and WebFetch's network rules — an IP literal of this machine refused before any request,
 * a name that resolves to 127.0.0.1 refused at the connection, a redirect to another host reported
 * rather than followed.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageBlock, ToolUseContext } from '../../core/index.js';
import { createSessionServices, type SessionServicesHandle } from '../../runtime/index.js';
import { type LocalWebServer, page, redirect, startLocalWebServer } from '../../testing/local-web-server.js';
import { makeToolContext, runTool, runToolError, runToolOk } from '../../testing/tool-harness.js';
import { tableResolver } from '../web-fetch/network-guard.js';
import { webBrowserPorts } from '../web-browser-ports.js';
import { BROWSER_RESOURCE, BrowserSession, DEFAULT_CHROMIUM_PATH } from './browser-session.js';
import { createWebBrowserTool, SCREENSHOT_MAX_HEIGHT_PX, type WebBrowserOutput } from './web-browser.tool.js';

const COUNTER = `<!DOCTYPE html><html><head><title>Counter</title></head><body>
<h1>Counter</h1><p id="count">Count: 0</p>
<button onclick="const p = document.getElementById('count'); p.textContent = 'Count: ' + (Number(p.textContent.split(': ')[1]) + 1)">Add one</button>
<form action="/hello" method="get"><input name="who" aria-label="Your name"><button type="submit">Greet</button></form>
<script>document.querySelector('h1').insertAdjacentHTML('afterend', '<p>Built by a script</p>')</script>
</body></html>`;

let web: LocalWebServer;
let services: SessionServicesHandle;
let context: ToolUseContext;
let dir: string;
let savedTmpdir: string | undefined;
const tool = createWebBrowserTool({
  ports: webBrowserPorts({
    settings: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1', 'rebind.test'] },
    resolver: tableResolver({ 'rebind.test': '127.0.0.1' }),
  }),
});

beforeAll(async () => {
  web = await startLocalWebServer({
    '/': page(COUNTER),
    '/hello': (req, res) => {
      const who = new URL(req.url ?? '/', 'http://x').searchParams.get('who') ?? '';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<html><head><title>Greeting</title></head><body><h1>Hello, ${who.replace(/</g, '')}!</h1></body></html>`,
      );
    },
    '/moved': redirect('/', 302),
    '/tall': page('<html><body style="margin:0"><div style="height:20000px">tall</div></body></html>'),
    '/away': (_req, res) => {
      res.writeHead(302, { location: `http://rebind.test:${web.port}/` });
      res.end();
    },
  });
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-browser-')));
  // Chromium writes files of its own (`org.chromium.Chromium.*`) to its TMPDIR: keep them in this
  // test's folder, which is removed afterwards.
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  services = createSessionServices();
  context = makeToolContext({ cwd: dir, services, tools: [tool] });
});
afterAll(async () => {
  await services?.dispose();
  await web?.close();
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(dir, { recursive: true, force: true });
});

const call = (input: Record<string, unknown>) => runToolOk<WebBrowserOutput>(tool, input, context);

describe('WebBrowser on local pages', () => {
  it('navigate follows a same-host redirect and read returns the text, scripts run', async () => {
    const opened = await call({ action: 'navigate', url: web.url('/moved') });
    expect(opened.data).toMatchObject({ url: web.url('/'), title: 'Counter', status: 200 });
    const read = await call({ action: 'read' });
    expect(read.data.text).toContain('Count: 0');
    expect(read.data.text).toContain('Built by a script');
  });

  it('read with format accessibility gives the tree with refs; a click through a ref changes the page', async () => {
    await call({ action: 'navigate', url: web.url('/') });
    const tree = (await call({ action: 'read', format: 'accessibility' })).data.text;
    expect(tree).toMatch(/heading "Counter" \[level=1\]/);
    const ref = /button "Add one"[^\n]*\[ref=([a-z0-9]+)\]/.exec(tree)?.[1];
    expect(ref, tree).toBeDefined();
    const clicked = await call({ action: 'click', ref });
    expect(clicked.data.text).toContain('Count: 1');
    await call({ action: 'click', selector: 'text=Add one' });
    expect((await call({ action: 'read' })).data.text).toContain('Count: 2');
  });

  it('type fills an input and submit sends the form', async () => {
    await call({ action: 'navigate', url: web.url('/') });
    const typed = await call({ action: 'type', selector: 'input[name=who]', text: 'Ada', submit: true });
    expect(typed.data.title).toBe('Greeting');
    expect(typed.data.text).toContain('Hello, Ada!');
    expect(web.requests.some((r) => r.url === '/hello?who=Ada')).toBe(true);
  });

  it('screenshot is a PNG image block', async () => {
    await call({ action: 'navigate', url: web.url('/') });
    const shot = await call({ action: 'screenshot' });
    const blocks = shot.content as Array<{ type: string }>;
    const image = blocks.find((b): b is ImageBlock => b.type === 'image');
    expect(image?.source.media_type).toBe('image/png');
    const bytes = Buffer.from(image?.source.data ?? '', 'base64');
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1280, 800]);
  });

  it('a full-page screenshot of a very tall page is cut at the model’s image limit', async () => {
    await call({ action: 'navigate', url: web.url('/tall') });
    const shot = await call({ action: 'screenshot', full_page: true });
    const image = (shot.content as Array<{ type: string }>).find((b): b is ImageBlock => b.type === 'image');
    const bytes = Buffer.from(image?.source.data ?? '', 'base64');
    expect(bytes.readUInt32BE(20)).toBe(SCREENSHOT_MAX_HEIGHT_PX);
    expect(shot.data.text).toContain(`the first ${SCREENSHOT_MAX_HEIGHT_PX} pixels of a 20000-pixel page`);
  });

  it('later calls are described on the open page’s host (domain rules cover them)', async () => {
    await call({ action: 'navigate', url: web.url('/') });
    const described = await tool.describeCall({ action: 'click', ref: 'e1' }, context);
    expect(described.ruleContents).toEqual(['domain:127.0.0.1']);
    expect(tool.isReadOnly({ action: 'click', ref: 'e1' })).toBe(false);
    expect(tool.isReadOnly({ action: 'read' })).toBe(true);
  });
});

describe("WebBrowser follows WebFetch's network rules", () => {
  it('an IP literal of this machine is refused before any request without the allowance', async () => {
    const strict = createWebBrowserTool({ ports: webBrowserPorts() });
    const before = web.requests.length;
    const error = await runToolError(strict, { action: 'navigate', url: web.url('/') }, context);
    expect(error).toMatch(/this machine|private network/);
    expect(web.requests.length).toBe(before);
  });

  it('a name that resolves to 127.0.0.1 is refused at the connection; the page is not loaded', async () => {
    const before = web.requests.length;
    const run = await call({ action: 'navigate', url: `http://rebind.test:${web.port}/` });
    expect(run.data.text).toMatch(/stopped: .*rebind\.test.*resolves to 127\.0\.0\.1/);
    expect(web.requests.length).toBe(before);
  });

  it('a redirect to another host is reported, not followed', async () => {
    const run = await call({ action: 'navigate', url: web.url('/away') });
    expect(run.data.text).toMatch(
      /redirects \(HTTP 302\) to http:\/\/rebind\.test:\d+\/, another host; it was not followed/,
    );
  });

  it('without an open page, read asks for navigate first; a missing Chromium is a clear error', async () => {
    const fresh = makeToolContext({ cwd: dir, services: createSessionServices(), tools: [tool] });
    expect(await runToolError(tool, { action: 'read' }, fresh)).toMatch(/No page is open/);
    const absent = createWebBrowserTool({
      executablePath: path.join(dir, 'no-chromium'),
      ports: webBrowserPorts({
        settings: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
      }),
    });
    const run = await runTool(absent, { action: 'navigate', url: web.url('/') }, fresh);
    expect(run.error).toMatch(/needs Chromium, and .*no-chromium does not exist/);
  });
});

describe('the browser is a session resource', () => {
  it('one browser for the session, closed when the session is disposed', async () => {
    expect(existsSync(DEFAULT_CHROMIUM_PATH)).toBe(true);
    const browser = services.get(BROWSER_RESOURCE);
    expect(browser).toBeInstanceOf(BrowserSession);
    expect(services.names().filter((n) => n === BROWSER_RESOURCE)).toHaveLength(1);
    await services.dispose();
    expect((browser as BrowserSession).isClosed).toBe(true);
  });
});
