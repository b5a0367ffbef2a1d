/** WebFetch's URL policy and describer: the https upgrade, refusals before connecting, same-site redirects, rule contents. */
import { describe, expect, it } from 'vitest';
import { webFetchDescriber } from './describe.js';
import { compileNetworkPolicy, isSameSiteRedirect, prepareUrl } from './url-policy.js';

const none = compileNetworkPolicy();
const world = { cwd: '/', home: '/root', resolver: { realpath: (p: string) => p } } as never;

describe('prepareUrl', () => {
  it.each([
    ['http://example.com/a?b=1', 'https://example.com/a?b=1', true, 'http is upgraded'],
    [
      'http://example.com:80/a',
      'https://example.com/a',
      true,
      'the explicit http port goes with the upgrade',
    ],
    ['http://example.com:8080/a', 'https://example.com:8080/a', true, 'another port is kept'],
    ['https://example.com/a', 'https://example.com/a', false, 'https stays'],
    ['https://Bücher.DE/x', 'https://xn--bcher-kva.de/x', false, 'IDN hosts in punycode'],
  ])('%s → %s (upgraded %s; %s)', (raw, expected, upgraded, _why) => {
    const p = prepareUrl(raw, none);
    expect(p.ok && p.url.href).toBe(expected);
    expect(p.ok && p.upgraded).toBe(upgraded);
  });

  it('keeps http for an http host, and refuses private literals unless the literal is allowed', () => {
    const policy = compileNetworkPolicy({
      allowHttpHosts: ['Legacy.Example.org.'],
      allowPrivateHosts: ['10.0.0.7'],
    });
    const legacy = prepareUrl('http://legacy.example.org/x', policy);
    expect(legacy.ok && legacy.url.protocol).toBe('http:');
    expect(prepareUrl('http://10.0.0.7/x', policy).ok).toBe(true);
    expect(prepareUrl('http://10.0.0.8/x', policy)).toMatchObject({ ok: false, kind: 'blocked' });
    expect(prepareUrl('http://8.8.8.8/x', policy).ok).toBe(true);
  });

  it('an allowance of "*" allows nothing', () => {
    const policy = compileNetworkPolicy({ allowPrivateHosts: ['*'] });
    expect(prepareUrl('http://127.0.0.1/', policy)).toMatchObject({ ok: false, kind: 'blocked' });
  });
});

describe('isSameSiteRedirect', () => {
  it.each([
    ['https://a.com/x', 'https://a.com/y', true, 'same host, path change'],
    ['https://a.com/x', 'https://A.COM./y', true, 'host case and trailing dot'],
    ['http://a.com/x', 'https://a.com/x', true, 'upgrade on default ports'],
    ['https://a.com/x', 'http://a.com/x', false, 'downgrade'],
    ['http://a.com:8080/x', 'https://a.com:8443/x', false, 'upgrade to another port'],
    ['https://a.com/x', 'https://www.a.com/x', false, 'www added'],
    ['https://www.a.com/x', 'https://a.com/x', false, 'www removed'],
    ['https://a.com/x', 'https://a.com:444/x', false, 'another port'],
    ['https://a.com/x', 'https://u:p@a.com/x', false, 'credentials added'],
    ['https://a.com/x', 'https://evil.com/x', false, 'another host'],
  ])('%s → %s: %s (%s)', (from, to, expected, _why) => {
    expect(isSameSiteRedirect(new URL(from), new URL(to))).toBe(expected);
  });
});

describe('webFetchDescriber', () => {
  it.each([
    [{ url: 'https://Docs.Example.com./a' }, ['domain:docs.example.com'], 'known'],
    [{ url: 'http://bücher.de/x' }, ['domain:xn--bcher-kva.de'], 'known'],
    [{ url: 'http://[::1]:8080/' }, ['domain:::1'], 'known'],
    [{ url: 'ftp://example.com/' }, [], 'unknown'],
    [{ url: 'nonsense' }, [], 'unknown'],
    [{}, [], 'unknown'],
    [{ url: 42 }, [], 'unknown'],
  ])('%j → %j, a %s network effect', async (input, contents, certainty) => {
    const d = await webFetchDescriber.describe(input as Record<string, unknown>, world);
    expect(d.ruleContents).toEqual(contents);
    expect(d.effects).toHaveLength(1);
    expect(d.effects[0]).toMatchObject({ kind: 'network', certainty });
    expect(d.readOnly).toBe(true);
  });
});
