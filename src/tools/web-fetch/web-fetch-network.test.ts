/**
 * WebFetch's network safety through the real runtime: names resolving to internal addresses
 * refused at connect time (the server never reached), IP literals and single-label hosts refused
 * before connecting unless allowed, redirects to internal literals treated as another host, and
 * the https upgrade against a local TLS server with a test certificate.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalWebServer, page, redirect } from '../../testing/local-web-server.js';
import { runTool, runToolOk } from '../../testing/tool-harness.js';
import { useWebFetchWorld, webFetchFixture } from '../../testing/web-fetch-world.js';
import { tableResolver } from './network-guard.js';
import type { WebFetchOutput } from './web-fetch.tool.js';

const fixture = webFetchFixture;

const w = useWebFetchWorld();
const { makeTool, context, url } = w;
let server: LocalWebServer;
beforeAll(() => {
  server = w.server;
});

describe('WebFetch: network safety', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['0.0.0.0', 'the any address, which reaches local services'],
    ['169.254.169.254', 'the cloud metadata address'],
    ['10.1.2.3', 'a private network'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['fd00:ec2::254', 'unique-local IPv6 (AWS metadata)'],
  ])(
    'a name resolving to %s (%s) is refused at connect time; the server is never reached',
    async (address) => {
      const tool = makeTool({ resolver: tableResolver({ 'evil.test': address }) });
      const run = await runTool(tool, { url: `http://evil.test:${server.port}/x`, prompt: 'x' }, context());
      expect(run.ok).toBe(false);
      expect(run.error).toContain(`The host "evil.test" resolves to ${address}`);
      expect(run.error).toContain('webFetch.allowPrivateHosts');
      expect(server.requests).toHaveLength(0);
    },
  );

  it('a name with one public and one internal address is refused', async () => {
    const tool = makeTool({ resolver: tableResolver({ 'mixed.test': ['93.184.215.14', '127.0.0.1'] }) });
    const run = await runTool(tool, { url: `https://mixed.test:${server.port}/`, prompt: 'x' }, context());
    expect(run.error).toContain('resolves to 127.0.0.1');
  });

  it.each([
    ['http://127.0.0.1:PORT/x', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]:PORT/x', '::ffff:7f00:1'],
    ['http://[::1]:PORT/x', '::1'],
    ['http://0.0.0.0:PORT/x', '0.0.0.0'],
    ['http://2130706433:PORT/x', '127.0.0.1'],
    ['http://0x7f.1:PORT/x', '127.0.0.1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://192.168.1.1/', '192.168.1.1'],
  ])('the IP literal %s is refused before any connection', async (raw, address) => {
    const run = await runTool(
      makeTool(),
      { url: raw.replace('PORT', String(server.port)), prompt: 'x' },
      context(),
    );
    expect(run.ok).toBe(false);
    expect(run.error).toContain(`The address ${address} belongs to`);
    expect(server.requests).toHaveLength(0);
  });

  it('a single-label host is refused unless allowed', async () => {
    const run = await runTool(makeTool(), { url: 'http://intranet/wiki', prompt: 'x' }, context());
    expect(run.error).toContain('has no domain part');
  });

  it('an explicitly allowed IP literal is reached (over http only when it is an http host too)', async () => {
    server.route('/ok', page('<p>local service</p>'));
    const tool = makeTool({ settings: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] } });
    const run = await runToolOk<WebFetchOutput>(tool, { url: server.url('/ok'), prompt: 'x' }, context());
    expect(run.data.result).toContain('local service');
  });

  it('a same-host redirect to a path is followed but a redirect to an internal literal is another host (notice, not fetched)', async () => {
    server.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/'));
    const run = await runToolOk<WebFetchOutput>(
      makeTool(),
      { url: url('/to-metadata'), prompt: 'x' },
      context(),
    );
    expect(run.data.result).toContain('Redirect URL: http://169.254.169.254/latest/meta-data/');
  });
});

describe('WebFetch: https upgrade', () => {
  let https: HttpsServer;
  let httpsPort: number;
  beforeAll(async () => {
    https = createHttpsServer({ key: fixture('test-tls.key'), cert: fixture('test-tls.crt') }, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<p>secure page at ${req.url}</p>`);
    });
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    httpsPort = (https.address() as AddressInfo).port;
  });
  afterAll(async () => {
    https.closeAllConnections();
    await new Promise((resolve) => https.close(resolve));
  });

  it('fetches an http: URL over https: (the port kept) unless the host is an http host', async () => {
    const tool = makeTool({
      resolver: tableResolver({ 'secure.test': '127.0.0.1' }),
      settings: { allowPrivateHosts: ['secure.test'] },
      tlsCa: fixture('test-tls.crt'),
    });
    const run = await runToolOk<WebFetchOutput>(
      tool,
      { url: `http://secure.test:${httpsPort}/upgraded`, prompt: 'x' },
      context(),
    );
    expect(run.data.result).toContain('secure page at /upgraded');
  });

  it('a certificate that is not trusted is a TLS error', async () => {
    const tool = makeTool({
      resolver: tableResolver({ 'secure.test': '127.0.0.1' }),
      settings: { allowPrivateHosts: ['secure.test'] },
    });
    const run = await runTool(tool, { url: `https://secure.test:${httpsPort}/`, prompt: 'x' }, context());
    expect(run.error).toMatch(/TLS connection to secure\.test:\d+ failed/);
  });
});
