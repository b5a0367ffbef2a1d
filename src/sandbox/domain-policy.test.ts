import { describe, expect, it } from 'vitest';
import { compileDomainPolicy, isLoopbackHost } from './domain-policy.js';

describe('compileDomainPolicy', () => {
  const policy = compileDomainPolicy({
    allowedDomains: [
      'registry.npmjs.org',
      '*.github.com',
      '127.0.0.1:8080',
      'localhost:3000',
      '[::1]:443',
      'Example.COM.',
    ],
    deniedDomains: ['evil.github.com', 'registry.npmjs.org:80'],
  });
  it.each<[string, number, boolean, string]>([
    ['registry.npmjs.org', 443, true, 'exact host, any port'],
    ['REGISTRY.npmjs.org.', 443, true, 'case and trailing dot ignored'],
    ['registry.npmjs.org', 80, false, 'a denied host:port wins over the allowed host'],
    ['api.github.com', 443, true, 'wildcard matches a subdomain'],
    ['github.com', 443, false, 'wildcard does not match the apex'],
    ['evil.github.com', 443, false, 'denied wins over the wildcard allow'],
    ['notgithub.com', 443, false, 'suffix without a dot boundary'],
    ['127.0.0.1', 8080, true, 'loopback literal with its port'],
    ['127.0.0.1', 8081, false, 'another loopback port is not allowed'],
    ['localhost', 3000, true, 'localhost with its port'],
    ['::1', 443, true, 'IPv6 entry in brackets'],
    ['[::1]', 443, true, 'IPv6 host in brackets'],
    ['example.com', 443, true, 'entry with upper case and a trailing dot'],
    ['example.org', 443, false, 'not listed: denied by default'],
  ])('%s:%i → %s (%s)', (host, port, allowed) => {
    expect(policy.decide(host, port).allowed).toBe(allowed);
  });

  it('reports which list decided', () => {
    expect(policy.decide('evil.github.com', 443)).toEqual({
      allowed: false,
      reason: 'denied',
      rule: 'evil.github.com',
    });
    expect(policy.decide('x.test', 1)).toEqual({ allowed: false, reason: 'not-allowed' });
    expect(policy.decide('api.github.com', 1)).toEqual({ allowed: true, rule: '*.github.com', exact: false });
  });

  it('an empty allowlist allows nothing; `*` allows everything not denied', () => {
    expect(compileDomainPolicy({ allowedDomains: [], deniedDomains: [] }).allowsAnything).toBe(false);
    const all = compileDomainPolicy({ allowedDomains: ['*'], deniedDomains: ['bad.test'] });
    expect(all.decide('anything.test', 1).allowed).toBe(true);
    expect(all.decide('bad.test', 1).allowed).toBe(false);
  });
});

describe('isLoopbackHost', () => {
  it.each<[string, boolean, string]>([
    ['localhost', true, 'name'],
    ['127.0.0.5', true, 'any 127/8 address'],
    ['[::1]', true, 'IPv6 loopback'],
    ['a.localhost', true, 'the .localhost domain is loopback'],
    ['10.0.0.1', false, 'private, not loopback'],
    ['localhost.example.com', false, 'a real domain'],
  ])('%s → %s (%s)', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('Unicode names are compared in punycode (one host normaliser)', () => {
  it.each([
    [['bücher.de'], [], 'xn--bcher-kva.de', true, 'a Unicode allow entry matches the punycode request'],
    [['xn--bcher-kva.de'], [], 'bücher.de', true, 'a punycode entry matches a Unicode request'],
    [['*.bücher.de'], [], 'shop.xn--bcher-kva.de', true, 'a Unicode wildcard entry'],
    [['BÜCHER.de'], [], 'xn--bcher-kva.de', true, 'upper-case Unicode'],
    [['*'], ['bücher.de'], 'xn--bcher-kva.de', false, 'a Unicode deny cannot be passed in punycode'],
    [['*'], ['xn--bcher-kva.de'], 'bücher.de', false, 'a punycode deny cannot be passed in Unicode'],
    [['buecher.de'], [], 'xn--bcher-kva.de', false, 'a different name stays different'],
  ] as const)('allowed %j denied %j, %s → %s (%s)', (allowedDomains, deniedDomains, host, expected, _why) => {
    const policy = compileDomainPolicy({
      allowedDomains: [...allowedDomains],
      deniedDomains: [...deniedDomains],
    });
    expect(policy.decide(host, 443).allowed).toBe(expected);
  });
});
