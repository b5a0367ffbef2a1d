/**
 * What a WebBrowser call would do, for the permission engine. Rules are per domain, of the tool's
 * own kind: `WebBrowser(domain:example.com)` (a `WebFetch(domain:…)` rule does not cover it: a
 * browser runs the page's scripts and can submit forms, which a fetch never does).
 *
 * - `navigate {url}`: a network effect on the URL's host; rule contents `domain:<host>` (normalised
 *   like every domain rule, `core/host-name.ts`). A URL that is not http(s) is an unknown network
 *   effect (never allowed without asking).
 * - the other actions work on the page already open: the tool's `describeCall` names the page's
 *   current host (`currentUrl`), so a domain rule that allowed the navigation covers them; with no
 *   page open they are described without a host (the call then fails: nothing is open).
 * `click` and `type` can change things on the site (a form, a button): they are not read-only;
 * `navigate`, `read` and `screenshot` are (they change nothing on this machine, like WebFetch).
 */
import { type FullToolDescriberEntry, stringField, textField } from '../../core/call-describer.js';
import { knownEffect, unknownEffect } from '../../core/effects.js';
import { normalizeHostName } from '../../core/host-name.js';
import type { CallDescription } from '../../core/permission-types.js';

/** The normalised host of an http(s) URL, or undefined (the same reading as WebFetch's describer). */
function webUrlHost(raw: string): string | undefined {
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

const READ_ONLY_ACTIONS = new Set(['navigate', 'read', 'screenshot']);

/** The description of `input`, with `currentUrl` the page the non-navigate actions act on. */
export function describeWebBrowser(
  input: Readonly<Record<string, unknown>>,
  currentUrl?: string,
): CallDescription {
  const action = textField(input, 'action');
  const readOnly = READ_ONLY_ACTIONS.has(action);
  const url = action === 'navigate' ? stringField(input, 'url') : currentUrl;
  const host = url === undefined ? undefined : webUrlHost(url);
  if (action === 'navigate' && (url === undefined || host === undefined))
    return {
      ruleContents: [],
      effects: [unknownEffect('network', url ?? '', 'tool-input', 'url is not an http(s) URL')],
      findings: [],
      readOnly,
      summary: `WebBrowser navigate ${url ?? '(no url)'}`,
    };
  return {
    ruleContents: host ? [`domain:${host}`] : [],
    effects:
      url && host ? [knownEffect('network', url, 'tool-input', action === 'navigate' ? 'url' : 'page')] : [],
    findings: [],
    readOnly,
    summary: `WebBrowser ${action}${url ? ` ${url}` : ''}`,
  };
}

export const webBrowserDescriber: FullToolDescriberEntry = {
  name: 'WebBrowser',
  describe: (input) => describeWebBrowser(input),
  isReadOnly: (input) => READ_ONLY_ACTIONS.has(textField(input, 'action')),
  toAutoClassifierInput: (input) =>
    `browser ${textField(input, 'action')} ${textField(input, 'url')} ${textField(input, 'ref') || textField(input, 'selector')} ${textField(input, 'text')}`
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 500),
};
