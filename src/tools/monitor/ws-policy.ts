/**
 * Monitor's wording of a refused `ws` host. The rules themselves are WebFetch's (README of
 * src/tools/web-fetch "Network safety"), reached through the `network` port: an IP literal or a
 * single-label host naming this machine, its link, a cloud metadata service or a private network
 * is refused before any prompt, and a name resolving to such an address is refused at connect
 * time — unless the user lists the host in the settings key `webFetch.allowPrivateHosts`.
 */
import { classifyAddress } from '../../sandbox/address-guard.js';
import type { RefusedHost } from './ports.js';

/** The message for a refused host. */
export function refusedHostMessage({ host, address }: RefusedHost): string {
  const allowance =
    'Monitor does not connect to such hosts unless the user lists the host in the settings key webFetch.allowPrivateHosts.';
  if (address === undefined)
    return `The host "${host}" has no domain part, so it names a machine on the local network. ${allowance}`;
  const what =
    classifyAddress(address) === 'private'
      ? 'a private network'
      : 'this machine, its link or a cloud metadata service';
  const via =
    host === address ? `The address ${address}` : `The host "${host}" resolves to ${address}, which`;
  return `${via} belongs to ${what}. ${allowance}`;
}
