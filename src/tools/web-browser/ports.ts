/**
 * What WebBrowser needs from WebFetch's network rules, as ports (tool folders do not import each
 * other): `src/tools/web-browser-ports.ts` fills them from `web-fetch/url-policy.ts` and
 * `web-fetch/network-guard.ts`, so both tools apply the very same checks and allowances.
 */

/** A URL checked before any request: the (possibly upgraded) URL and its normalised host, or why not. */
export type PreparedWebUrl = { ok: true; url: URL; host: string } | { ok: false; message: string };

/** A `lookup` for `net.connect` (undici's `connect.lookup`) that refuses internal addresses. */
export type ConnectLookup = (
  hostname: string,
  options: { all?: boolean; family?: number | string } | number | undefined,
  callback: (
    error: NodeJS.ErrnoException | null,
    address: string | { address: string; family: number }[],
    family?: number,
  ) => void,
) => void;

export interface BrowserNetworkPorts {
  /** WebFetch's URL check: shape, IP literals and single-label hosts, the `http:` → `https:` upgrade. */
  prepareUrl(raw: string): PreparedWebUrl;
  /** The normalised host of a URL (lower case, punycode, no trailing dot, no IPv6 brackets). */
  hostOf(url: URL): string;
  /** The connect-time address guard. */
  lookup: ConnectLookup;
  /** The `code` of the error the guard fails a connection with. */
  blockedCode: string;
}
