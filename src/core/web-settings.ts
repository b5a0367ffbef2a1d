/**
 * The `webFetch` and `webSearch` settings objects (Gantry's own keys; Claude Code has no
 * equivalent), shared by whatever loads settings files and the WebFetch and WebSearch tools that
 * obey them. Pure: parsing, a merge over settings files in precedence order, no I/O.
 *
 * ```jsonc
 * "webFetch": {
 *   "allowPrivateHosts": ["127.0.0.1", "wiki.internal.example"], // may be (or resolve to) private addresses; kept on http:
 *   "allowHttpHosts": ["legacy.example.org"],                   // fetched over plain http (no upgrade)
 *   "model": "haiku",                                           // answers the prompt; "none" = return the page text
 *   "preapprovedHosts": true                                    // the built-in documentation hosts need no approval
 * },
 * "webSearch": {
 *   "provider": "searxng",                 // anthropic | brave | tavily | searxng (default: the first available)
 *   "searxngUrl": "http://127.0.0.1:8888", // or env SEARXNG_URL
 *   "model": "haiku",                      // the model that runs Anthropic's server-side search
 *   "maxUses": 8                           // searches one Anthropic call may run
 * }
 * ```
 *
 * Merge: lists are concatenated over every file; a scalar comes from the highest-precedence file
 * that sets it. The allowances (`allowPrivateHosts`, `allowHttpHosts`) widen what the tools reach,
 * so a caller drops them from project files of an untrusted folder (`untrusted: true`), as it does
 * for widening permission rules. A value of the wrong type is a problem, reported and ignored.
 */

export const WEB_SEARCH_PROVIDERS = ['anthropic', 'brave', 'tavily', 'searxng'] as const;
export type WebSearchProviderName = (typeof WEB_SEARCH_PROVIDERS)[number];

export interface WebFetchSettings {
  allowPrivateHosts?: string[];
  allowHttpHosts?: string[];
  model?: string;
  preapprovedHosts?: boolean;
}

export interface WebSearchSettings {
  provider?: WebSearchProviderName;
  searxngUrl?: string;
  model?: string;
  maxUses?: number;
}

export interface WebSettings {
  webFetch: WebFetchSettings;
  webSearch: WebSearchSettings;
}

/** One settings file's contents, in precedence order (highest first) when merged. */
export interface WebSettingsSource {
  /** The parsed settings file (any JSON value). */
  settings: unknown;
  /** For problem messages. */
  file?: string;
  /** A project file of a folder that is not trusted: its allowances are dropped. */
  untrusted?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** Merges the `webFetch`/`webSearch` objects of `sources` (highest precedence first); never throws. */
export function mergeWebSettings(sources: readonly WebSettingsSource[]): {
  settings: WebSettings;
  problems: string[];
} {
  const webFetch: WebFetchSettings = {};
  const webSearch: WebSearchSettings = {};
  const problems: string[] = [];
  const allowPrivate: string[] = [];
  const allowHttp: string[] = [];
  for (const source of sources) {
    if (!isObject(source.settings)) continue;
    const where = source.file ? ` in ${source.file}` : '';
    const bad = (key: string, expected: string) =>
      problems.push(`${key}${where} must be ${expected}; the value was ignored`);
    const fetch = own(source.settings, 'webFetch');
    if (fetch !== undefined && !isObject(fetch)) bad('webFetch', 'an object');
    if (isObject(fetch)) {
      for (const [key, list] of [
        ['allowPrivateHosts', allowPrivate],
        ['allowHttpHosts', allowHttp],
      ] as const) {
        const v = own(fetch, key);
        if (v === undefined) continue;
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
          bad(`webFetch.${key}`, 'a list of host names');
          continue;
        }
        if (source.untrusted) {
          problems.push(`webFetch.${key}${where} ignored: the folder is not trusted`);
          continue;
        }
        list.push(...(v as string[]));
      }
      const model = own(fetch, 'model');
      if (model !== undefined && typeof model !== 'string') bad('webFetch.model', 'a string');
      else if (model !== undefined && webFetch.model === undefined) webFetch.model = model;
      const pre = own(fetch, 'preapprovedHosts');
      if (pre !== undefined && typeof pre !== 'boolean') bad('webFetch.preapprovedHosts', 'true or false');
      else if (pre !== undefined && webFetch.preapprovedHosts === undefined) webFetch.preapprovedHosts = pre;
    }
    const search = own(source.settings, 'webSearch');
    if (search !== undefined && !isObject(search)) bad('webSearch', 'an object');
    if (isObject(search)) {
      const provider = own(search, 'provider');
      if (provider !== undefined) {
        if (typeof provider !== 'string' || !(WEB_SEARCH_PROVIDERS as readonly string[]).includes(provider))
          bad('webSearch.provider', `one of ${WEB_SEARCH_PROVIDERS.join(', ')}`);
        else webSearch.provider ??= provider as WebSearchProviderName;
      }
      const url = own(search, 'searxngUrl');
      if (url !== undefined && typeof url !== 'string') bad('webSearch.searxngUrl', 'a URL');
      else if (url !== undefined) webSearch.searxngUrl ??= url;
      const model = own(search, 'model');
      if (model !== undefined && typeof model !== 'string') bad('webSearch.model', 'a string');
      else if (model !== undefined) webSearch.model ??= model;
      const maxUses = own(search, 'maxUses');
      if (maxUses !== undefined && !(Number.isInteger(maxUses) && (maxUses as number) >= 1))
        bad('webSearch.maxUses', 'a whole number of at least 1');
      else if (maxUses !== undefined) webSearch.maxUses ??= maxUses as number;
    }
  }
  if (allowPrivate.length > 0) webFetch.allowPrivateHosts = allowPrivate;
  if (allowHttp.length > 0) webFetch.allowHttpHosts = allowHttp;
  return { settings: { webFetch, webSearch }, problems };
}
