/**
 * The filtering proxy on a real Unix socket, with real HTTP servers on 127.0.0.1 and a raw client
 * speaking CONNECT and absolute-form HTTP (what curl, pip and npm send through HTTP(S)_PROXY).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDomainPolicy } from './domain-policy.js';
import { type ProxyEvent, type SandboxProxy, startSandboxProxy } from './network-proxy.js';

let dir: string;
let proxy: SandboxProxy;
let server: http.Server;
let port: number;
let otherPort: number;
let other: http.Server;
const events: ProxyEvent[] = [];

const listen = async (body: string) => {
  const s = http.createServer((req, res) =>
    res.end(`${body} ${req.method} ${req.url} host=${req.headers.host}`),
  );
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { s, port: (s.address() as net.AddressInfo).port };
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-proxy-'));
  ({ s: server, port } = await listen('allowed'));
  ({ s: other, port: otherPort } = await listen('other'));
  proxy = await startSandboxProxy({
    socketPath: path.join(dir, 'p.sock'),
    policy: compileDomainPolicy({
      allowedDomains: [`127.0.0.1:${port}`, `localhost:${port}`, 'rebind.test', 'denied.test'],
      deniedDomains: ['denied.test'],
    }),
    onEvent: (e) => events.push(e),
    // A fixed resolver: real DNS cannot make a test name resolve to loopback on every machine.
    resolveHost: async (host) =>
      ({ 'rebind.test': ['127.0.0.1'], localhost: ['::1', '127.0.0.1'] })[host] ?? ['203.0.113.9'],
  });
});

afterAll(async () => {
  await proxy.close();
  server.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends raw bytes to the proxy and collects everything until it closes (or `until` matches). */
function exchange(payload: string, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.socketPath);
    let text = '';
    socket.on('data', (d) => {
      text += d.toString();
      if (until?.test(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.write(payload);
  });
}

const auth = (token: string) =>
  `Proxy-Authorization: Basic ${Buffer.from(`gantry:${token}`).toString('base64')}\r\n`;

describe('CONNECT', () => {
  it('an allowed host:port is tunnelled (HTTP inside the tunnel reaches the server)', async () => {
    const text = await exchange(
      `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth('tok-1')}\r\nGET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`,
      /allowed GET \/x/,
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 Connection Established/);
    expect(text).toContain('allowed GET /x host=a');
    expect(events.at(-1)).toMatchObject({ token: 'tok-1', host: '127.0.0.1', port, allowed: true });
  });

  it.each<[string, RegExp, string]>([
    [
      `127.0.0.1:${0}`,
      /not in sandbox\.network\.allowedDomains/,
      'a loopback port that is not listed (placeholder port)',
    ],
    [
      'denied.test:443',
      /denied\.test is in sandbox\.network\.deniedDomains \(denied\.test\)/,
      'denied wins over allowed',
    ],
    [
      'rebind.test:443',
      /rebind\.test resolves to 127\.0\.0\.1, which is an address of this machine/,
      'an allowed name that resolves to loopback (DNS rebinding)',
    ],
    ['example.org:443', /example\.org:443 is not in sandbox\.network\.allowedDomains/, 'not listed'],
  ])('%s is refused with a 403 naming the host (%s)', async (authority, why) => {
    const target = authority === '127.0.0.1:0' ? `127.0.0.1:${otherPort}` : authority;
    const text = await exchange(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    expect(text).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(text).toContain(`Connection to ${target} blocked by Gantry sandbox policy`);
    if (authority !== '127.0.0.1:0') expect(text).toMatch(why);
    else expect(text).toMatch(/not in sandbox\.network\.allowedDomains/);
    expect(text).not.toContain('other GET');
  });

  it('localhost:PORT (listed) reaches a server that listens on 127.0.0.1 only (IPv4 tried first)', async () => {
    const text = await exchange(
      `CONNECT localhost:${port} HTTP/1.1\r\nHost: localhost\r\n\r\nGET /l HTTP/1.1\r\nHost: l\r\nConnection: close\r\n\r\n`,
      /allowed GET \/l/,
    );
    expect(text).toContain('allowed GET /l');
  });
});

describe('absolute-form HTTP', () => {
  it('an allowed http:// URL is forwarded with its Host header and without the proxy credentials', async () => {
    const text = await exchange(
      `GET http://127.0.0.1:${port}/path?q=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth('tok-2')}Connection: close\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain(`allowed GET /path?q=1 host=127.0.0.1:${port}`);
    expect(events.at(-1)).toMatchObject({ token: 'tok-2', allowed: true });
  });

  it('a refused http:// URL gets a 403 whose body names the host', async () => {
    const text = await exchange(
      `GET http://127.0.0.1:${otherPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 403/);
    expect(text).toContain(`Connection to 127.0.0.1:${otherPort} blocked by Gantry sandbox policy`);
    expect(text).toMatch(/x-gantry-sandbox: blocked/i);
  });

  it('a request that is not a proxy request is rejected (400)', async () => {
    const text = await exchange('GET /direct HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400/);
  });
});
