import { compileNetworks, withinTerm } from '../organisation-networks';

const network = (organisationId: string, ranges: string[], paywallIds: string[] = [], term: { startsAt: string; endsAt: string | null } = { startsAt: '2020-01-01T00:00:00.000Z', endsAt: null }) => ({
  organisationId,
  name: `Org ${organisationId}`,
  paywallIds,
  ranges,
  ...term,
});

describe('organisation networks', () => {
  const table = compileNetworks([
    network('campus', ['81.2.69.0/24', '2a02:1234::/32']),
    network('library', ['81.2.70.128/25', '81.2.71.7/32', '2a02:1235:8000::/33'], ['sports']),
  ]);
  const at = (ip: string) => table.organisationAt(ip)?.organisationId ?? null;

  it('finds the organisation whose IPv4 range holds the address, edges included', () => {
    expect(at('81.2.69.0')).toBe('campus');
    expect(at('81.2.69.255')).toBe('campus');
    expect(at('81.2.70.127')).toBeNull();
    expect(at('81.2.70.128')).toBe('library');
    expect(at('81.2.71.7')).toBe('library');
    expect(at('81.2.71.8')).toBeNull();
    expect(at('1.1.1.1')).toBeNull();
  });

  it('finds the ranges at either end of the IPv4 space', () => {
    const ends = compileNetworks([network('low', ['0.0.0.0/24']), network('high', ['255.255.255.0/24'])]);
    expect(ends.organisationAt('0.0.0.0')?.organisationId).toBe('low');
    expect(ends.organisationAt('255.255.255.255')?.organisationId).toBe('high');
    expect(ends.organisationAt('::ffff:255.255.255.254')?.organisationId).toBe('high');
    expect(ends.organisationAt('255.255.254.255')).toBeNull();
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(at('::ffff:81.2.69.20')).toBe('campus');
  });

  it('finds IPv6 ranges in any spelling of the address', () => {
    expect(at('2a02:1234::1')).toBe('campus');
    expect(at('2A02:1234:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF')).toBe('campus');
    expect(at('2a02:1235:7fff::1')).toBeNull();
    expect(at('2a02:1235:8000::1')).toBe('library');
    expect(table.organisationAt('2a02:1235:8000::1')?.paywallIds).toEqual(['sports']);
  });

  it('answers nothing for what is not an address', () => {
    expect(at('')).toBeNull();
    expect(at('not-an-ip')).toBeNull();
    expect(table.organisationAt(null)).toBeNull();
  });

  it("carries each organisation's term, which holds from its start until (not at) its end", () => {
    const start = '2031-03-01T00:00:00.000Z';
    const end = '2031-04-01T00:00:00.000Z';
    const termed = compileNetworks([network('term', ['81.2.72.0/24'], [], { startsAt: start, endsAt: end })]).organisationAt('81.2.72.1');
    if (!termed) throw new Error('the address is in range');
    expect(withinTerm(termed, new Date(Date.parse(start) - 1))).toBe(false);
    expect(withinTerm(termed, new Date(start))).toBe(true);
    expect(withinTerm(termed, new Date(Date.parse(end) - 1))).toBe(true);
    expect(withinTerm(termed, new Date(end))).toBe(false);
    const endless = table.organisationAt('81.2.69.1');
    expect(endless && withinTerm(endless, new Date('9999-12-31T23:59:59.999Z'))).toBe(true);
  });

  it('holds 10,000 ranges and finds each one', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => network(`o${i}`, [`${20 + (i >> 8)}.${i & 0xff}.0.0/16`]));
    const big = compileNetworks(many);
    expect(big.size).toBe(10_000);
    expect(big.organisationAt('20.0.1.2')?.organisationId).toBe('o0');
    expect(big.organisationAt('59.15.255.255')?.organisationId).toBe('o9999');
    expect(big.organisationAt('60.0.0.1')).toBeNull();
  });
});
