/**
 * What a WebFetch call would do, for the permission engine: a network read of the URL's host.
 * Rule contents are `domain:<host>` with the host normalised as every domain rule is
 * (`core/host-name.ts`: lower case, no trailing dot, internationalised names in punycode), so
 * `WebFetch(domain:bücher.de)` covers `https://BÜCHER.de./x`. A URL that does not parse, or is
 * not http(s), is an unknown network effect (never allowed without asking). The call itself reads
 * nothing on the machine, hence `readOnly` (docs/tool-traits.md).
 *
 * Only the first URL is described: a redirect is followed only within the same host (whose
 * domain-rule verdict is the same), and a redirect to another host becomes a notice for the model,
 * whose next call is described on its own.
 */
import { type FullToolDescriberEntry, stringField, textField } from '../../core/call-describer.js';
import { knownEffect, unknownEffect } from '../../core/effects.js';
import { normalizeHostName } from '../../core/host-name.js';
import type { CallDescription } from '../../core/permission-types.js';

/** The normalised host of a web URL, or undefined when `raw` is not an http(s) URL with a host. */
export function webUrlHost(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const host = normalizeHostName(url.hostname);
  return host === '' ? undefined : host;
}

function describeWebFetch(input: Readonly<Record<string, unknown>>): CallDescription {
  const url = stringField(input, 'url');
  const host = url === undefined ? undefined : webUrlHost(url);
  if (url === undefined || host === undefined)
    return {
      ruleContents: [],
      effects: [unknownEffect('network', url ?? '', 'tool-input', 'url is not an http(s) URL')],
      findings: [],
      readOnly: true,
      summary: `WebFetch ${url ?? '(no url)'}`,
    };
  return {
    ruleContents: [`domain:${host}`],
    effects: [knownEffect('network', url, 'tool-input', 'url')],
    findings: [],
    readOnly: true,
    summary: `WebFetch ${url}`,
  };
}

export const webFetchDescriber: FullToolDescriberEntry = {
  name: 'WebFetch',
  describe: describeWebFetch,
  isReadOnly: () => true,
  toAutoClassifierInput: (input) =>
    `fetch ${textField(input, 'url')}: ${textField(input, 'prompt')}`.slice(0, 500),
};
