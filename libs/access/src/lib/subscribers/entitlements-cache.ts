import type { CustomerEntitlement } from '@gatehouse/contracts';
import type { Clock } from '@gatehouse/platform';

export interface EntitlementsCacheOptions {
  /** How long an answer is used without asking again. */
  freshMs: number;
  /** After a failed lookup, how long the fallback is used before billing is asked again. */
  retryMs: number;
  maxEntries: number;
  /** Told of every failed lookup and whether a stale answer stood in for it. */
  onFailure(key: string, error: unknown, usedStale: boolean): void;
}

interface Entry {
  entitlements: CustomerEntitlement[];
  freshUntil: number;
}

/**
 * Customers' entitlements as billing last gave them. An access check never fails for want of an
 * answer: a failed lookup falls back to the last answer however old, or to none (not a
 * subscriber). Concurrent lookups of one key share one request, and a key dropped while its
 * lookup is in flight does not take that lookup's (possibly outdated) answer.
 */
export class EntitlementsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<CustomerEntitlement[]>>();

  constructor(
    private readonly clock: Clock,
    private readonly options: EntitlementsCacheOptions,
  ) {}

  get(key: string, lookUp: () => Promise<CustomerEntitlement[]>): Promise<CustomerEntitlement[]> {
    const entry = this.entries.get(key);
    if (entry && entry.freshUntil > this.clock.now().getTime()) return Promise.resolve(entry.entitlements);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const lookup: Promise<CustomerEntitlement[]> = lookUp().then(
      (entitlements) => this.settle(key, lookup, entitlements, this.options.freshMs),
      (error: unknown) => {
        this.options.onFailure(key, error, entry !== undefined);
        return this.settle(key, lookup, entry?.entitlements ?? [], this.options.retryMs);
      },
    );
    this.inFlight.set(key, lookup);
    return lookup;
  }

  drop(key: string): void {
    this.entries.delete(key);
    this.inFlight.delete(key);
  }

  private settle(key: string, lookup: Promise<CustomerEntitlement[]>, entitlements: CustomerEntitlement[], forMs: number): CustomerEntitlement[] {
    if (this.inFlight.get(key) !== lookup) return entitlements;
    this.inFlight.delete(key);
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { entitlements, freshUntil: this.clock.now().getTime() + forMs });
    return entitlements;
  }
}
