import { AppError, isLoopbackHost } from '@gatehouse/platform';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { getPublicSuffix } from 'tldts';
import type { DomainProof, Publication } from './publication.entity';

/** Host names as stored: trimmed, lower-cased, without blanks or duplicates, in the order given. */
export function normaliseDomains(domains: readonly string[]): string[] {
  return [...new Set(domains.map((domain) => domain.trim().toLowerCase()).filter((domain) => domain !== ''))];
}

/**
 * A domain no publication may claim: a public suffix (`com`, `co.uk`, `github.io`: the Public
 * Suffix List's ICANN and private sections, through tldts) or a wildcard over one (`*.com`,
 * `*.example`), which would take every site under it. IP addresses and `localhost` stay allowed
 * (local development and tests).
 */
export function refusePublicSuffixes(domains: readonly string[]): void {
  const refused = domains.filter((domain) => {
    const host = domain.startsWith('*.') ? domain.slice(2) : domain;
    if (isIP(host) !== 0 || host === 'localhost' || host.endsWith('.localhost')) return false;
    return getPublicSuffix(host, { allowPrivateDomains: true }) === host;
  });
  if (refused.length > 0) {
    throw AppError.invalid('domains', `${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} a public suffix or a wildcard over one: claim your own domain (e.g. news.example.com or *.news.example.com)`);
  }
}

/** Whether two domain patterns share a host: equal, or one a wildcard over the other (`*.b.example` covers `x.b.example` and `*.x.b.example`). */
export function domainsOverlap(a: string, b: string): boolean {
  return a === b || covers(a, b) || covers(b, a);
}

function covers(wildcard: string, other: string): boolean {
  if (!wildcard.startsWith('*.')) return false;
  const host = other.startsWith('*.') ? other.slice(2) : other;
  return host.endsWith(wildcard.slice(1));
}

/** Local development and tests: a loopback host needs no proof (no one else can serve it to a reader). */
export function isLoopbackDomain(domain: string): boolean {
  return isLoopbackHost(proofHostOf(domain));
}

/** The host a domain is proven on: itself, or the base domain of a wildcard (`*.news.example` → `news.example`). */
export function proofHostOf(domain: string): string {
  return domain.startsWith('*.') ? domain.slice(2) : domain;
}

/** Tokens for the domains claimed: kept for domains kept, new for new ones, gone with dropped ones. */
export function proofsFor(domains: readonly string[], previous: Record<string, DomainProof> = {}): Record<string, DomainProof> {
  return Object.fromEntries(domains.map((domain) => [domain, previous[domain] ?? { token: `gatehouse-verification=${randomBytes(16).toString('hex')}`, verifiedAt: null }]));
}

/** The domains account email links may lead to. */
export function verifiedDomainsOf(publication: Pick<Publication, 'domains' | 'domainProofs'>): string[] {
  return publication.domains.filter((domain) => isLoopbackDomain(domain) || Boolean(publication.domainProofs[domain]?.verifiedAt));
}
