/**
 * Which resolved addresses the sandbox proxy refuses (docs/security-round-2.md "Sandbox network"),
 * with Node's `net.BlockList`, so every spelling of an address is one address: `::ffff:127.0.0.1`,
 * `::ffff:7f00:1` and `127.0.0.1` all match 127.0.0.0/8, and `0:0:0:0:0:0:0:1` is `::1`.
 *
 * - `host`: the machine itself and what only it or its link reaches — 0.0.0.0/8 (0.0.0.0 reaches
 *   the host's own services), 127.0.0.0/8, 169.254.0.0/16 (cloud metadata), `::`, `::1`,
 *   fe80::/10, fc00::/7 (unique-local, where AWS's IPv6 metadata address lives); IPv4 embedded in
 *   NAT64 (64:ff9b::/96) or in a 6to4 address (2002:AABB:CCDD::/48, RFC 3056) is judged as the
 *   IPv4 address.
 * - `private`: private networks — 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10
 *   (carrier-grade NAT), 198.18.0.0/15; configurable (`sandbox.network.allowPrivateNetworks`).
 */
import net from 'node:net';

export type AddressClass = 'host' | 'private';

const HOST_V4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
];
const HOST_V6: readonly [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
];
const PRIVATE_V4: readonly [string, number][] = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['198.18.0.0', 15],
];

function list(v4: readonly [string, number][], v6: readonly [string, number][] = []): net.BlockList {
  const b = new net.BlockList();
  for (const [a, p] of v4) b.addSubnet(a, p, 'ipv4');
  for (const [a, p] of v6) b.addSubnet(a, p, 'ipv6');
  return b;
}

const HOST = list(HOST_V4, HOST_V6);
const PRIVATE = list(PRIVATE_V4);
const NAT64 = list([], [['64:ff9b::', 96]]);
const SIX_TO_FOUR = list([], [['2002::', 16]]);

/** The eight 16-bit groups of an IPv6 address (as numbers), `::` expanded. */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const part = (s: string): number[] => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const h = part(head);
  const t = tail === undefined ? [] : part(tail);
  return [...h, ...new Array(Math.max(0, 8 - h.length - t.length)).fill(0), ...t];
}

/** The IPv4 address a 6to4 address (2002:AABB:CCDD::/48) carries. */
function sixToFourEmbedded(address: string): string | undefined {
  if (!SIX_TO_FOUR.check(address, 'ipv6')) return undefined;
  const sock = new net.SocketAddress({ address, family: 'ipv6' });
  const groups = ipv6Groups(sock.address);
  const hi = groups[1] ?? 0;
  const lo = groups[2] ?? 0;
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** The IPv4 address a NAT64 address (64:ff9b::a.b.c.d) stands for. */
function nat64Embedded(address: string): string | undefined {
  if (!NAT64.check(address, 'ipv6')) return undefined;
  const sock = new net.SocketAddress({ address, family: 'ipv6' });
  const groups = sock.address.split(':');
  const hi = Number.parseInt(groups.at(-2) || '0', 16);
  const lo = Number.parseInt(groups.at(-1) || '0', 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * The class of a resolved address, or undefined for a public one (and for text that is not an IP
 * address, which the caller never connects to).
 * @param privateRanges - false when private networks are allowed by configuration.
 */
export function classifyAddress(address: string, privateRanges = true): AddressClass | undefined {
  const family = net.isIP(address);
  if (family === 0) return undefined;
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (HOST.check(address, type)) return 'host';
  if (privateRanges && PRIVATE.check(address, type)) return 'private';
  const embedded = family === 6 ? (nat64Embedded(address) ?? sixToFourEmbedded(address)) : undefined;
  return embedded ? classifyAddress(embedded, privateRanges) : undefined;
}
