/**
 * Host policy of the sandbox proxy (`network.allowedDomains` / `deniedDomains` of the Claude Code sandboxing docs).
 * Pure: `(host, port)` in, decision out.
 *
 * Entry grammar (case-insensitive, trailing dot ignored, Unicode names compared in punycode):
 * - `example.com` — that host, any port;            `example.com:443` — that host and port only;
 * - `*.example.com` — any subdomain (not the apex);  `*.example.com:443` — same, one port;
 * - `127.0.0.1:8080`, `localhost:3000`, `[::1]:443`, `[::1]` — IP literals and loopback, same rules;
 * - `*` — every host (explicit opt-in).
 * Denied entries win over allowed ones. No entry → refused (network is denied by default).
 */

import { normalizeHostName } from '../core/host-name.js';

/** The proxy's verdict for one destination. */
export type DomainDecision =
  | { allowed: true; rule: string; exact: boolean }
  | { allowed: false; reason: 'denied' | 'not-allowed'; rule?: string };

interface ParsedEntry {
  text: string;
  host: string;
  wildcard: boolean;
  any: boolean;
  port?: number;
}

/** Lower-cases, strips a trailing dot and IPv6 brackets, punycodes (core/host-name.ts). */
export const normalizeHost = normalizeHostName;

function parseEntry(text: string): ParsedEntry | undefined {
  let t = text.trim();
  if (t === '') return undefined;
  if (t === '*') return { text, host: '', wildcard: false, any: true };
  let port: number | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  if (bracket) {
    const host = normalizeHostName(bracket[1] as string);
    port = bracket[2] === undefined ? undefined : Number(bracket[2]);
    return port === undefined
      ? { text, host, wildcard: false, any: false }
      : { text, host, wildcard: false, any: false, port };
  }
  const colon = t.lastIndexOf(':');
  if (colon > 0 && t.indexOf(':') === colon && /^\d+$/.test(t.slice(colon + 1))) {
    port = Number(t.slice(colon + 1));
    t = t.slice(0, colon);
  }
  const wildcard = t.startsWith('*.');
  const host = normalizeHost(wildcard ? t.slice(2) : t);
  if (host === '') return undefined;
  return port === undefined
    ? { text, host, wildcard, any: false }
    : { text, host, wildcard, any: false, port };
}

function entryMatches(entry: ParsedEntry, host: string, port: number): boolean {
  if (entry.port !== undefined && entry.port !== port) return false;
  if (entry.any) return true;
  if (entry.wildcard) return host.endsWith(`.${entry.host}`);
  return host === entry.host;
}

/** A compiled allow/deny list. */
export interface DomainPolicy {
  decide(host: string, port: number): DomainDecision;
  /** True when at least one destination can be allowed (the proxy is worth starting). */
  readonly allowsAnything: boolean;
}

/** Compiles the two lists once; `decide` is then a linear scan over them. */
export function compileDomainPolicy(lists: {
  allowedDomains: readonly string[];
  deniedDomains: readonly string[];
}): DomainPolicy {
  const allowed = lists.allowedDomains.map(parseEntry).filter((e): e is ParsedEntry => e !== undefined);
  const denied = lists.deniedDomains.map(parseEntry).filter((e): e is ParsedEntry => e !== undefined);
  return {
    allowsAnything: allowed.length > 0,
    decide(rawHost: string, port: number): DomainDecision {
      const host = normalizeHost(rawHost);
      const deny = denied.find((e) => entryMatches(e, host, port));
      if (deny) return { allowed: false, reason: 'denied', rule: deny.text };
      const allow = allowed.find((e) => entryMatches(e, host, port));
      if (allow) return { allowed: true, rule: allow.text, exact: !allow.any && !allow.wildcard };
      return { allowed: false, reason: 'not-allowed' };
    },
  };
}

/** True for loopback literals and `localhost` (for the DNS-rebinding guard of the proxy). */
export function isLoopbackHost(host: string): boolean {
  const h = normalizeHost(host);
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}
