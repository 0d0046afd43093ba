import { isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * The one target guard: an address is a webhook target only if it is plain public unicast.
 * IPv4: every special-purpose range ipaddr.js knows (unspecified, loopback, private, link-local,
 * CGNAT, multicast, broadcast, documentation, benchmarking, 6to4 relay, reserved, AMT, AS112) is
 * refused. IPv6: only global unicast 2000::/3 is considered, and inside it the special ranges
 * (Teredo and the rest of 2001::/23, 6to4 2002::/16, documentation 2001:db8::/32 and 3fff::/20,
 * benchmarking, ORCHID, segment routing) are refused; so IPv4-compatible ::a.b.c.d, IPv4-mapped,
 * NAT64 64:ff9b::/96 and 64:ff9b:1::/48, ULA, link-local, multicast and loopback never pass,
 * whichever way they are spelled.
 */
export function isPrivateAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''); // brackets and zone ids
  if (!isIP(literal) || !ipaddr.isValid(literal)) return true; // not an address at all: refuse
  const parsed = ipaddr.parse(literal);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return true;
  if (!v6.match(GLOBAL_UNICAST)) return true;
  return v6.range() !== 'unicast';
}

export class TargetRefusedError extends Error {}

/** Resolves a URL's host (at subscription time) and refuses private targets unless allowed. */
export async function assertPublicTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  const bad = addresses.find(isPrivateAddress);
  if (bad) throw new TargetRefusedError(`${host} resolves to ${bad}, a private, loopback or link-local address`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that checks the address actually connected to, so a DNS answer
 * that changes after the subscription was checked cannot point a delivery inside the network.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(
      hostname,
      options as never,
      ((err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
        if (err) return callback(err, address, family);
        const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
        const bad = allowPrivate ? undefined : list.find(isPrivateAddress);
        if (bad)
          return callback(
            new TargetRefusedError(`${hostname} resolves to ${bad}, a private, loopback or link-local address`),
            address,
            family,
          );
        callback(null, address, family);
      }) as never,
    );
  };
}

/** IP-literal hosts skip DNS (and therefore the lookup hook): check them directly. */
export function refuseLiteralPrivate(url: URL, allowPrivate: boolean): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
    throw new TargetRefusedError(`${host} is a private, loopback or link-local address`);
  }
}
