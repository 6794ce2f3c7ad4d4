// Where a live webhook may be sent: only to public unicast addresses, checked on the addresses a name resolves to
// when the connection is made (so a name cannot resolve to a public address when checked and a private one when
// used).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** Why an address may not be the target of a live webhook; null when it may. */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net/tls connections that refuses names resolving to any address that is not public. */
export function publicOnlyLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.map((entry) => refusedAddress(entry.address)).find((reason) => reason !== null);
    if (refused) return callback(Object.assign(new Error(`refused: ${hostname} resolves to ${refused}`), { code: 'EADDRNOTALLOWED' }), []);
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
}

/** Resolves a host now, for the answer at creation; the connection checks again. */
export async function checkPublicHost(hostname: string): Promise<string | null> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare)) return refusedAddress(bare);
  return new Promise((resolve) => {
    dnsLookup(bare, { all: true }, (error, addresses) => {
      if (error) return resolve(`${bare} does not resolve`);
      resolve(addresses.map((entry) => refusedAddress(entry.address)).find((reason) => reason !== null) ?? null);
    });
  });
}
