import { isIP } from 'node:net';

/** An IP address as a number of its family: IPv4 in 32 bits, IPv6 in 128. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

/** A CIDR range: every address from `first` to `last` of its family. */
export interface IpRange {
  family: 4 | 6;
  first: bigint;
  last: bigint;
  prefix: number;
  /** Canonical text: the network address and prefix (`81.2.69.0/24`, `2a02:1234::/32`). */
  cidr: string;
}

const BITS = { 4: 32, 6: 128 } as const;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/**
 * An address as a number, or null for anything that is not one. An IPv4-mapped IPv6 address
 * (`::ffff:81.2.69.1`, as a dual-stack socket reports an IPv4 client) is the IPv4 address it maps.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const dotted = ipv4Number(text);
  if (dotted >= 0) return { family: 4, value: BigInt(dotted) };
  const family = isIP(text);
  if (family === 4) return { family: 4, value: ipv4Value(text) };
  if (family !== 6 || text.includes('%')) return null;
  const value = ipv6Value(text);
  return value >> 32n === 0xffffn ? { family: 4, value: value & 0xffffffffn } : { family: 6, value };
}

/** `address/prefix` with the address the range's first one (no host bits set); null otherwise. */
export function parseCidr(text: string): IpRange | null {
  const match = /^([0-9A-Fa-f.:]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match) return null;
  const family = isIP(match[1]);
  if (family !== 4 && family !== 6) return null;
  const prefix = Number(match[2]);
  const bits = BITS[family];
  if (prefix > bits) return null;
  const first = family === 4 ? ipv4Value(match[1]) : ipv6Value(match[1]);
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  if ((first & hostMask) !== 0n) return null;
  return { family, first, last: first | hostMask, prefix, cidr: `${formatIp(family, first)}/${prefix}` };
}

export function rangesOverlap(a: IpRange, b: IpRange): boolean {
  return a.family === b.family && a.first <= b.last && b.first <= a.last;
}

/**
 * Ranges no organisation's readers browse from on the public internet: private networks,
 * loopback, link-local, shared address space (CGNAT), documentation, benchmarking, multicast and
 * reserved space (RFC 6890 and its IPv6 counterparts).
 */
const RESERVED_RANGES: IpRange[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
  '::/8',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
].map((cidr) => parseCidr(cidr) as IpRange);

/** The reserved range (above) the range overlaps, or null when it is all public address space. */
export function reservedRangeOverlapping(range: IpRange): string | null {
  return RESERVED_RANGES.find((reserved) => rangesOverlap(reserved, range))?.cidr ?? null;
}

/** An IPv4 address already known valid, as a BigInt. */
function ipv4Value(text: string): bigint {
  return BigInt(ipv4Number(text));
}

/**
 * A dotted-quad IPv4 address as `isIP` takes one (four octets of 0 to 255, no leading zero) as
 * one number below 2^32; -1 for any other text (an IPv4-mapped IPv6 address included: see
 * `parseIpAddress`). Read in one pass: every access check from an IPv4 client asks it.
 */
export function ipv4Number(text: string): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === DOT) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else if (code >= ZERO && code <= NINE) {
      if (digits > 0 && octet === 0) return -1;
      octet = octet * 10 + code - ZERO;
      digits++;
      if (octet > 255) return -1;
    } else {
      return -1;
    }
  }
  return digits === 0 || dots !== 3 ? -1 : value * 256 + octet;
}

/** An IPv6 address already known valid (`isIP`), an embedded IPv4 tail included. */
function ipv6Value(text: string): bigint {
  let address = text.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = ipv4Value(dotted[1]);
    address = `${address.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = address.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function formatIp(family: 4 | 6, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => ((value >> shift) & 0xffn).toString()).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run of two or more zero groups becomes `::` (RFC 5952).
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}
