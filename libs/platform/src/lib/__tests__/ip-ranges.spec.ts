import { isIP } from 'node:net';
import { parseCidr, parseIpAddress, rangesOverlap, reservedRangeOverlapping } from '../ip-ranges';

describe('CIDR ranges', () => {
  it('are read in canonical form', () => {
    expect(parseCidr('81.2.69.0/24')?.cidr).toBe('81.2.69.0/24');
    expect(parseCidr(' 2A02:1234:0:0::/32 ')?.cidr).toBe('2a02:1234::/32');
    expect(parseCidr('2001:db8:0:1::/64')?.cidr).toBe('2001:db8:0:1::/64');
    expect(parseCidr('0.0.0.0/0')?.cidr).toBe('0.0.0.0/0');
  });

  it('refuse host bits, bad prefixes and what is not an address', () => {
    for (const bad of ['81.2.69.1/24', '81.2.69.0/33', '81.2.69.0', '2a02::/129', 'example.com/8', '300.1.1.0/24', '81.2.69.0/-1', '']) {
      expect(parseCidr(bad)).toBeNull();
    }
  });

  it('overlap only within one family', () => {
    const a = parseCidr('81.2.0.0/16')!;
    expect(rangesOverlap(a, parseCidr('81.2.69.0/24')!)).toBe(true);
    expect(rangesOverlap(a, parseCidr('81.3.0.0/16')!)).toBe(false);
    expect(rangesOverlap(parseCidr('::/0')!, a)).toBe(false);
  });

  it('name the reserved range a private or documentation range touches', () => {
    expect(reservedRangeOverlapping(parseCidr('10.1.0.0/16')!)).toBe('10.0.0.0/8');
    expect(reservedRangeOverlapping(parseCidr('192.0.0.0/8')!)).toBe('192.0.0.0/24');
    expect(reservedRangeOverlapping(parseCidr('fd00::/8')!)).toBe('fc00::/7');
    expect(reservedRangeOverlapping(parseCidr('2001:db8::/48')!)).toBe('2001:db8::/32');
    expect(reservedRangeOverlapping(parseCidr('81.2.69.0/24')!)).toBeNull();
    expect(reservedRangeOverlapping(parseCidr('2a02:1234::/32')!)).toBeNull();
  });
});

describe('IP addresses', () => {
  it('map IPv4-mapped IPv6 to IPv4', () => {
    expect(parseIpAddress('::ffff:81.2.69.1')).toEqual(parseIpAddress('81.2.69.1'));
    expect(parseIpAddress('fe80::1%eth0')).toBeNull();
    expect(parseIpAddress('81.2.69')).toBeNull();
  });

  it('read an IPv4 address exactly as Node.js does, and nothing else as one', () => {
    // Every text of up to eight characters over digits and dots weighed, in a seeded sample, and the edges by name.
    let seed = 23;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = '0123456789..25x';
    const texts = ['0.0.0.0', '255.255.255.255', '256.1.1.1', '1.2.3.04', '01.2.3.4', '1.2.3.4.', '.1.2.3.4', '1..2.3', '1.2.3', '1.2.3.4.5', '', '1.2.3.-4', '١.2.3.4'];
    for (let n = 0; n < 6_000; n++) {
      const octets = Array.from({ length: 4 }, () => String(Math.floor(next() * 300)).padStart(next() < 0.1 ? 3 : 0, '0'));
      texts.push(next() < 0.5 ? octets.join('.') : Array.from({ length: 1 + Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
    }
    let valid = 0;
    for (const text of texts) {
      const expected = isIP(text) === 4 ? { family: 4, value: BigInt(text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0)) } : null;
      if (expected) valid++;
      expect({ text, address: parseIpAddress(text) }).toEqual({ text, address: expected });
    }
    expect(valid).toBeGreaterThan(500);
    expect(valid).toBeLessThan(texts.length - 500);
  });
});
