/**
 * The key an address is counted under by the sign-up and sign-in limits (adr/0064): an IPv4
 * address as it is (an IPv4-mapped IPv6 one as its IPv4), an IPv6 address as its /64. One
 * customer line, one phone or one rented server gets a whole /64 (RFC 6177, RFC 7934), so
 * counting exact IPv6 addresses gave one attacker 2^64 fresh "addresses".
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The /64 of `ip` (`2001:db8:1:2::/64`), or `ip` itself when it is IPv4 or no address at all. */
export function addressKey(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  return `${hextets(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of a valid IPv6 address, `::` expanded, without leading zeros (a zone index dropped). */
function hextets(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::');
  const parts = (text: string) => (text === '' ? [] : text.split(':').flatMap((part) => (part.includes('.') ? ipv4Hextets(part) : [part])));
  const front = parts(head);
  const back = tail === undefined ? [] : parts(tail);
  const zeros = Array.from({ length: 8 - front.length - back.length }, () => '0');
  return [...front, ...zeros, ...back].map((part) => Number.parseInt(part, 16).toString(16));
}

/** An embedded IPv4 tail (`::1.2.3.4`) as its two hextets. */
function ipv4Hextets(text: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = text.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
