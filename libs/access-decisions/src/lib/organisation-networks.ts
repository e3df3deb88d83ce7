import type { OrganisationNetwork } from '@gatehouse/contracts';
import { ipv4Number, parseCidr, parseIpAddress, type IpRange } from '@gatehouse/platform';

/** The organisation whose network an address is in, as a check names it. */
export interface NetworkOrganisation {
  organisationId: string;
  name: string;
  /** What its product unlocks; empty: every paywall. */
  paywallIds: readonly string[];
  /** Its term in epoch milliseconds: it grants from `startsMs` until `endsMs` (exclusive; Infinity: no end). */
  startsMs: number;
  endsMs: number;
}

/** Whether an organisation's term holds this moment: its start and end take effect at the very next check, whatever the age of the copy. */
export function withinTerm(term: { startsMs: number; endsMs: number }, now: Date): boolean {
  const time = now.getTime();
  return term.startsMs <= time && time < term.endsMs;
}

/** An organisation's term (ISO start, ISO end or none) as `withinTerm` compares it. */
export function termOf(term: { startsAt: string; endsAt: string | null }): { startsMs: number; endsMs: number } {
  return { startsMs: Date.parse(term.startsAt), endsMs: term.endsAt === null ? Number.POSITIVE_INFINITY : Date.parse(term.endsAt) };
}

/**
 * A publication's organisations' IP ranges, compiled once per load for the hot path: per family,
 * the ranges sorted by their first address, so an address is found by binary search. Billing
 * refuses overlapping ranges within a publication (whatever their terms), so at most one range
 * holds an address; the decision compares its organisation's term with the check's time.
 */
export interface NetworkTable {
  size: number;
  organisationAt(ip: string | null | undefined): NetworkOrganisation | null;
}

interface Entry<N extends number | bigint> {
  first: N;
  last: N;
  organisation: NetworkOrganisation;
}

export function compileNetworks(networks: readonly OrganisationNetwork[]): NetworkTable {
  // IPv4 ranges as plain numbers (every check from an IPv4 client searches them: BigInt
  // comparisons cost several times more), IPv6 ones as BigInts.
  const v4: Entry<number>[] = [];
  const v6: Entry<bigint>[] = [];
  for (const { organisationId, name, paywallIds, ranges, startsAt, endsAt } of networks) {
    const organisation = { organisationId, name, paywallIds, ...termOf({ startsAt, endsAt }) };
    for (const cidr of ranges) {
      const range: IpRange | null = parseCidr(cidr);
      if (range?.family === 4) v4.push({ first: Number(range.first), last: Number(range.last), organisation });
      else if (range) v6.push({ first: range.first, last: range.last, organisation });
    }
  }
  v4.sort((a, b) => a.first - b.first);
  v6.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  return {
    size: v4.length + v6.length,
    organisationAt(ip) {
      if (!ip) return null;
      const dotted = ipv4Number(ip);
      if (dotted >= 0) return holding(v4, dotted);
      const address = parseIpAddress(ip);
      if (!address) return null;
      return address.family === 4 ? holding(v4, Number(address.value)) : holding(v6, address.value);
    },
  };
}

export const NO_NETWORKS: NetworkTable = compileNetworks([]);

/** The entry whose range holds the value: the last one starting at or below it, if it ends at or above it. */
function holding<N extends number | bigint>(entries: Entry<N>[], value: N): NetworkOrganisation | null {
  let low = 0;
  let high = entries.length - 1;
  let candidate = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (entries[middle].first <= value) {
      candidate = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return candidate >= 0 && entries[candidate].last >= value ? entries[candidate].organisation : null;
}
