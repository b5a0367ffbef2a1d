/** The webFetch / webSearch settings merge: precedence, lists concatenated, bad values reported, untrusted allowances dropped. */
import { describe, expect, it } from 'vitest';
import { mergeWebSettings } from './web-settings.js';

describe('mergeWebSettings', () => {
  it('concatenates allowance lists, takes scalars from the highest-precedence file', () => {
    const { settings, problems } = mergeWebSettings([
      {
        settings: {
          webFetch: { allowPrivateHosts: ['a.internal'], model: 'haiku' },
          webSearch: { provider: 'brave' },
        },
      },
      {
        settings: {
          webFetch: {
            allowPrivateHosts: ['b.internal'],
            allowHttpHosts: ['old.example'],
            model: 'sonnet',
            preapprovedHosts: false,
          },
          webSearch: { provider: 'tavily', searxngUrl: 'http://127.0.0.1:8888', maxUses: 3 },
        },
      },
    ]);
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      webFetch: {
        allowPrivateHosts: ['a.internal', 'b.internal'],
        allowHttpHosts: ['old.example'],
        model: 'haiku',
        preapprovedHosts: false,
      },
      webSearch: { provider: 'brave', searxngUrl: 'http://127.0.0.1:8888', maxUses: 3 },
    });
  });

  it('drops the allowances of an untrusted project file, with a problem naming it', () => {
    const { settings, problems } = mergeWebSettings([
      {
        settings: { webFetch: { allowPrivateHosts: ['169.254.169.254'], model: 'haiku' } },
        file: '/p/.claude/settings.json',
        untrusted: true,
      },
    ]);
    expect(settings.webFetch).toEqual({ model: 'haiku' });
    expect(problems).toEqual([
      'webFetch.allowPrivateHosts in /p/.claude/settings.json ignored: the folder is not trusted',
    ]);
  });

  it.each([
    [{ webFetch: 'yes' }, 'webFetch must be an object'],
    [
      { webFetch: { allowPrivateHosts: 'localhost' } },
      'webFetch.allowPrivateHosts must be a list of host names',
    ],
    [{ webFetch: { preapprovedHosts: 'no' } }, 'webFetch.preapprovedHosts must be true or false'],
    [
      { webSearch: { provider: 'bing' } },
      'webSearch.provider must be one of anthropic, brave, tavily, searxng',
    ],
    [{ webSearch: { maxUses: 0 } }, 'webSearch.maxUses must be a whole number of at least 1'],
  ])('%j is reported and ignored', (raw, message) => {
    const { settings, problems } = mergeWebSettings([{ settings: raw }]);
    expect(problems[0]).toMatch(message);
    expect(settings).toEqual({ webFetch: {}, webSearch: {} });
  });

  it('ignores inherited keys (a "__proto__" key in JSON is an own key, not an allowance)', () => {
    const raw = JSON.parse('{"__proto__": {"webFetch": {"allowPrivateHosts": ["127.0.0.1"]}}}');
    expect(mergeWebSettings([{ settings: raw }]).settings.webFetch).toEqual({});
  });
});
