import ipaddr from 'ipaddr.js';

/**
 * The unit a per-address count is kept for: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * as its IPv4), an IPv6 address by its /64 — one subscriber's network, whose host may take any of
 * 2^64 addresses, so counting each address apart would give it an allowance per address.
 * Anything that does not parse (no address known) is counted under its own text.
 */
export function clientBucket(ip: string): string {
  if (!ip.includes(':') || !ipaddr.isValid(ip)) return ip; // IPv4 (the common case) without parsing
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
