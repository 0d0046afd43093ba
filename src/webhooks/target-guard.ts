import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';

/** Loopback, private, link-local, CGNAT, multicast and reserved ranges: never a webhook target by default. */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true; // not an address at all: refuse
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
    dnsLookup(hostname, options as never, ((err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (err) return callback(err, address, family);
      const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const bad = allowPrivate ? undefined : list.find(isPrivateAddress);
      if (bad) return callback(new TargetRefusedError(`${hostname} resolves to ${bad}, a private, loopback or link-local address`), address, family);
      callback(null, address, family);
    }) as never);
  };
}

/** IP-literal hosts skip DNS (and therefore the lookup hook): check them directly. */
export function refuseLiteralPrivate(url: URL, allowPrivate: boolean): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
    throw new TargetRefusedError(`${host} is a private, loopback or link-local address`);
  }
}
