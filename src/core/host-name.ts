/**
 * The one host normaliser of permission rules (`WebFetch(domain:…)`) and sandbox domain lists:
 * trimmed, lower-cased, IPv6 brackets and a trailing dot removed, and internationalised names in
 * their ASCII (punycode) form, the form `new URL()` gives a request's host. So a rule written
 * `bücher.de` matches the request for `xn--bcher-kva.de`, and a Unicode host cannot slip past an
 * ASCII deny. `*` labels are kept (`*.bücher.de` → `*.xn--bcher-kva.de`). Ports are not handled
 * here (callers split them first).
 */
import net from 'node:net';
import { domainToASCII } from 'node:url';

export function normalizeHostName(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h === '' || net.isIP(h) !== 0) return h;
  // Pure ASCII names need no conversion (and keep forms domainToASCII rejects, like `a..b`).
  if (/^[\x20-\x7e]*$/.test(h)) return h;
  const ascii = domainToASCII(h);
  return ascii === '' ? h : ascii;
}
