/**
 * The proxy's address guard after DNS resolution (address-guard.ts), through a real proxy on a Unix
 * socket with an injected resolver and a real HTTP server on 127.0.0.1: a wildcard or `*` entry
 * never reaches the machine's own services or a private network however the address is spelled;
 * exact entries do what they name. Plus the classifier table on its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from './address-guard.js';
import { compileDomainPolicy } from './domain-policy.js';
import { type SandboxProxy, startSandboxProxy } from './network-proxy.js';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'host', 'loopback'],
    ['127.8.9.10', 'host', 'all of 127/8'],
    ['0.0.0.0', 'host', 'unspecified: reaches the host’s own listeners'],
    ['0.1.2.3', 'host', '0/8'],
    ['169.254.169.254', 'host', 'cloud metadata'],
    ['::', 'host', 'IPv6 unspecified'],
    ['::1', 'host', 'IPv6 loopback'],
    ['0:0:0:0:0:0:0:1', 'host', 'IPv6 loopback, long form'],
    ['::ffff:127.0.0.1', 'host', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'host', 'IPv4-mapped loopback in hex'],
    ['::ffff:169.254.169.254', 'host', 'IPv4-mapped metadata'],
    ['fe80::1', 'host', 'link-local'],
    ['fd00:ec2::254', 'host', 'unique-local (AWS IPv6 metadata)'],
    ['64:ff9b::7f00:1', 'host', 'NAT64 spelling of 127.0.0.1'],
    ['10.1.2.3', 'private', 'RFC 1918'],
    ['172.16.0.1', 'private', 'RFC 1918'],
    ['172.31.255.255', 'private', 'RFC 1918 upper edge'],
    ['192.168.1.1', 'private', 'RFC 1918'],
    ['100.64.0.1', 'private', 'carrier-grade NAT'],
    ['::ffff:10.0.0.1', 'private', 'IPv4-mapped private'],
    ['172.32.0.1', undefined, 'just outside 172.16/12'],
    ['203.0.113.9', undefined, 'public (documentation range)'],
    ['2001:db8::1', undefined, 'public IPv6'],
    ['64:ff9b::cb00:7109', undefined, 'NAT64 of a public address'],
    ['2002:7f00:1::', 'host', '6to4 carrying 127.0.0.1'],
    ['2002:a9fe:a9fe::1', 'host', '6to4 carrying the metadata address'],
    ['2002:0a00:0001:1::5', 'private', '6to4 carrying 10.0.0.1'],
    ['2002:cb00:7109::', undefined, '6to4 carrying a public address'],
  ])('%s → %s (%s)', (address, expected, _why) => {
    expect(classifyAddress(address)).toBe(expected);
  });
  it('private ranges can be allowed by configuration; the host never', () => {
    expect(classifyAddress('10.1.2.3', false)).toBeUndefined();
    expect(classifyAddress('127.0.0.1', false)).toBe('host');
  });
});

let dir: string;
let server: http.Server;
let port: number;
let proxy: SandboxProxy;
let hits = 0;

const NAMES: Record<string, string[]> = {
  'zero.example.com': ['0.0.0.0'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'mapped-meta.example.com': ['::ffff:169.254.169.254'],
  'unspec6.example.com': ['::'],
  'long6.example.com': ['0:0:0:0:0:0:0:1'],
  'ula.example.com': ['fd00:ec2::254'],
  'nat64.example.com': ['64:ff9b::7f00:1'],
  'mixed.example.com': ['203.0.113.9', '127.0.0.1'],
  'corp.example.com': ['10.0.0.5'],
  'db.internal': ['127.0.0.1'],
  'decimal.example.com': ['127.0.0.1'],
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gantry-guard-'));
  server = http.createServer((_req, res) => {
    hits++;
    res.end('REACHED host loopback service');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
  proxy = await startSandboxProxy({
    socketPath: path.join(dir, 'p.sock'),
    policy: compileDomainPolicy({
      allowedDomains: ['*.example.com', 'db.internal', `127.0.0.1:${port}`],
      deniedDomains: [],
    }),
    onEvent: () => undefined,
    resolveHost: async (host) => NAMES[host] ?? ['203.0.113.9'],
  });
});
afterAll(async () => {
  await proxy.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function connect(authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.socketPath);
    let text = '';
    socket.on('data', (d) => {
      text += d.toString();
      if (/REACHED/.test(text)) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.write(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe('the proxy refuses the host and private networks after resolution', () => {
  it.each([
    ['zero.example.com', '0.0.0.0 reaches 127.0.0.1 services on Linux'],
    ['mapped.example.com', 'IPv4-mapped loopback'],
    ['mapped-meta.example.com', 'IPv4-mapped metadata'],
    ['unspec6.example.com', 'IPv6 unspecified'],
    ['long6.example.com', 'IPv6 loopback, long form'],
    ['ula.example.com', 'unique-local'],
    ['nat64.example.com', 'NAT64 loopback'],
    ['mixed.example.com', 'one bad address among good ones is enough to refuse'],
    ['corp.example.com', 'a wildcard entry never reaches a private network'],
    ['db.internal', 'even an exact name is not the host: list the address itself'],
  ])('%s → 403, the service is never reached (%s)', async (name) => {
    const before = hits;
    const text = await connect(`${name}:${port}`);
    expect(text).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(text).not.toContain('REACHED');
    expect(hits).toBe(before);
  });

  it('literal internal addresses are refused unless listed exactly', async () => {
    for (const literal of ['0.0.0.0', '[::ffff:127.0.0.1]', '[::1]'])
      expect(await connect(`${literal}:${port}`)).toMatch(/^HTTP\/1\.1 403/);
  });

  it('the literal address that is listed is reached (control)', async () => {
    const text = await connect(`127.0.0.1:${port}`);
    expect(text).toMatch(/^HTTP\/1\.1 200 Connection Established/);
    expect(text).toContain('REACHED');
  });
});
