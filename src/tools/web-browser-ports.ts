/**
 * Fills WebBrowser's network ports (tools/web-browser/ports.ts) with WebFetch's URL policy and
 * connect-time address guard, so the browser folder does not import the WebFetch folder and the
 * rules exist once. Loaded by the registry only when the `BROWSER` flag is on.
 */
import type { WebFetchSettings } from '../core/web-settings.js';
import type { BrowserNetworkPorts } from './web-browser/ports.js';
import { guardedLookup, type Resolver } from './web-fetch/network-guard.js';
import { compileNetworkPolicy, prepareUrl, urlHost } from './web-fetch/url-policy.js';

export interface WebBrowserPortOptions {
  /** The `webFetch` settings: `allowPrivateHosts` and `allowHttpHosts` apply to the browser too. */
  settings?: Pick<WebFetchSettings, 'allowPrivateHosts' | 'allowHttpHosts'>;
  /** Name resolution of the connect-time guard (tests map names to 127.0.0.1). */
  resolver?: Resolver;
}

/** WebFetch's network rules for a browser, under `options.settings`' allowances. */
export function webBrowserPorts(options: WebBrowserPortOptions = {}): BrowserNetworkPorts {
  const policy = compileNetworkPolicy({
    allowPrivateHosts: options.settings?.allowPrivateHosts ?? [],
    allowHttpHosts: options.settings?.allowHttpHosts ?? [],
  });
  return {
    prepareUrl(raw) {
      const prepared = prepareUrl(raw, policy);
      return prepared.ok
        ? { ok: true, url: prepared.url, host: prepared.host }
        : { ok: false, message: prepared.message };
    },
    hostOf: urlHost,
    lookup: guardedLookup(policy, options.resolver),
    blockedCode: 'GANTRY_BLOCKED_ADDRESS',
  };
}
