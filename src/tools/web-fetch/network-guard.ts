/**
 * The connect-time address check of WebFetch (README.md "Network safety"): every name WebFetch
 * connects to is resolved through {@link guardedLookup}, which refuses the connection when any
 * address the name resolves to belongs to the machine itself, its link, a cloud metadata service
 * or a private network (`sandbox/address-guard.ts`, with `net.BlockList`, so IPv4-mapped IPv6,
 * `0.0.0.0` and NAT64 spellings are caught too), unless the user allows that host. Checking the
 * addresses actually connected to, rather than resolving once up front, closes the gap a DNS
 * answer that changes between a check and the connection would open.
 *
 * IP literals never reach a `lookup` function (Node connects to them directly), so they are judged
 * before the request (`url-policy.ts`).
 */
import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import { classifyAddress } from '../../sandbox/address-guard.js';
import type { NetworkPolicy } from './url-policy.js';
import { blockedMessage } from './url-policy.js';

/** A resolver: every address of `hostname` (tests inject one to map names to 127.0.0.1). */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The system resolver (`dns.lookup` with `all: true`, the resolver Node's sockets use). */
export const systemResolver: Resolver = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A connection refused because of the address its host resolved to. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'GANTRY_BLOCKED_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
    message: string,
  ) {
    super(message);
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `net.connect`/`tls.connect` (undici's `connect.lookup`): resolves with `resolver`
 * and fails with {@link BlockedAddressError} when any address is internal and `policy` does not
 * allow the host. Honours `options.all` and `options.family`.
 */
export function guardedLookup(policy: NetworkPolicy, resolver: Resolver = systemResolver) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string } | number | undefined,
    callback: LookupCallback,
  ): void => {
    const opts = typeof options === 'object' && options !== null ? options : {};
    const wanted = typeof options === 'number' ? options : Number(opts.family ?? 0) || 0;
    resolver(hostname).then(
      (found) => {
        const addresses = found.filter((a) => wanted === 0 || a.family === wanted);
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        if (!policy.privateAllowed(hostname)) {
          for (const a of addresses) {
            const cls = classifyAddress(a.address);
            if (cls) {
              callback(
                new BlockedAddressError(hostname, a.address, blockedMessage(hostname, a.address, cls)),
                '',
              );
              return;
            }
          }
        }
        if (opts.all) callback(null, [...addresses]);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** A resolver answering from a fixed table (names → addresses); unknown names fail as not found. */
export function tableResolver(table: Readonly<Record<string, string | readonly string[]>>): Resolver {
  const map = new Map(Object.entries(table));
  return async (hostname) => {
    const entry = map.get(hostname.toLowerCase());
    if (entry === undefined) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      throw error;
    }
    const list = typeof entry === 'string' ? [entry] : entry;
    return list.map((address) => ({ address, family: net.isIP(address) === 6 ? 6 : 4 }));
  };
}
