import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach (decisions G2): private, loopback, link-local, unique-local,
 * carrier-grade NAT, unspecified, multicast and reserved ranges. IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`) are checked against the IPv4 ranges.
 */
const PRIVATE_RANGES = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6');
}

/** True for an IP address in one of the ranges above; false for a public one or for anything that is not an address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return PRIVATE_RANGES.check(address, 'ipv4');
  if (PRIVATE_RANGES.check(address, 'ipv6')) return true;
  // An IPv6 address that carries an IPv4 one reaches that IPv4 address (through a translator or
  // tunnel, or the host itself): it is as private as the address it carries.
  return embeddedIPv4(groupsOf(address)).some((v4) => PRIVATE_RANGES.check(v4, 'ipv4'));
}

/**
 * The IPv4 addresses an IPv6 address embeds: IPv4-compatible (`::a.b.c.d`), -mapped
 * (`::ffff:a.b.c.d`) and -translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`, and the
 * local-use `64:ff9b:1::/48` whole), 6to4 (`2002:AABB:CCDD::`) and Teredo (`2001:0::/32`: the
 * server, and the client's address stored inverted).
 */
function embeddedIPv4(g: number[]): string[] {
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const last = v4(g[6], g[7]);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return [last];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [last];
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [last];
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return ['127.0.0.1'];
  if (g[0] === 0x2002) return [v4(g[1], g[2])];
  if (g[0] === 0x2001 && g[1] === 0) return [v4(g[2], g[3]), v4(~g[6] & 0xffff, ~g[7] & 0xffff)];
  return [];
}

/** The eight 16-bit groups of a valid IPv6 address, a trailing dotted quad included. */
function groupsOf(address: string): number[] {
  let text = address.split('%')[0];
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((x) => parseInt(x, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
