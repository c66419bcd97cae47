import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address (without a zone), '::' and dotted tail expanded. */
function ipv6Groups(address: string): number[] {
  let text = address;
  // a dotted IPv4 tail (::ffff:192.0.2.1) is the last two groups
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const [head, tail] = text.split('::');
  const headGroups = parse(head);
  if (tail === undefined) {
    return headGroups;
  }
  const tailGroups = parse(tail);
  const zeros = Array.from({ length: 8 - headGroups.length - tailGroups.length }, () => 0);
  return [...headGroups, ...zeros, ...tailGroups];
}

/**
 * The client address as per-address rate limits count it: an IPv4 address as it is, an IPv6
 * address by its /64, since one home, phone or server is given a whole /64 and can send from any
 * address in it. An IPv4-mapped IPv6 address (how a dual-stack listener reports IPv4 clients) is
 * its IPv4 address: otherwise every IPv4 client would share the bucket ::ffff:0:0/64.
 */
export function rateLimitAddress(address: string | undefined): string {
  if (address === undefined) {
    return 'unknown';
  }
  const withoutZone = address.split('%')[0] ?? address;
  if (isIPv4(withoutZone)) {
    return withoutZone;
  }
  if (!isIPv6(withoutZone)) {
    return address;
  }
  const groups = ipv6Groups(withoutZone.toLowerCase());
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
