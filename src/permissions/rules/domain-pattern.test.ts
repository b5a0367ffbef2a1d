import { describe, expect, it } from 'vitest';
import { compileDomainPattern, hostOf } from './domain-pattern.js';

describe('compileDomainPattern', () => {
  it.each([
    ['example.com', 'example.com', true, 'exact host'],
    ['Example.COM.', 'example.com', true, 'case-insensitive, trailing dot ignored'],
    ['example.com', 'api.example.com', false, 'exact does not cover subdomains'],
    ['*.example.com', 'api.example.com', true, 'subdomain'],
    ['*.example.com', 'a.b.example.com', true, 'any subdomain depth'],
    ['*.example.com', 'example.com', false, 'not the apex'],
    ['*.example.com', 'evilexample.com', false, 'label boundary'],
    ['example.*', 'example.org', true, 'star within one label'],
    ['example.*', 'example.evil.com', false, 'star does not cross labels'],
    ['*', 'anything.test', true, 'domain:* is any host'],
    ['bücher.de', 'xn--bcher-kva.de', true, 'a Unicode rule matches the punycode host URL parsing gives'],
    ['*.bücher.de', 'www.xn--bcher-kva.de', true, 'a Unicode wildcard rule'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de', true, 'a punycode rule'],
    ['bücher.de', 'buecher.de', false, 'a different name'],
  ])('%s vs %s → %s (%s)', (pattern, host, expected) => {
    expect(compileDomainPattern(pattern)(host)).toBe(expected);
  });
});

describe('hostOf', () => {
  it.each([
    ['https://Example.com:8443/path', 'example.com', 'URL with port'],
    ['domain:api.example.com', 'api.example.com', 'rule content form'],
    ['evil.example/x', 'evil.example', 'bare host with path'],
    ['127.0.0.1:8080', '127.0.0.1', 'host and port'],
    ['https://bücher.de/x', 'xn--bcher-kva.de', 'a Unicode URL host in punycode'],
    ['domain:BÜCHER.de', 'xn--bcher-kva.de', 'a Unicode rule content'],
    ['bücher.de:443/x', 'xn--bcher-kva.de', 'a bare Unicode host with a port'],
  ])('%s → %s (%s)', (input, host) => {
    expect(hostOf(input)).toBe(host);
  });
});
