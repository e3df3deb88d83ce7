import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AdminRequests, InternalEvents, type ApiKeyRevokedData, type ResolvedApiKey } from '@gatehouse/contracts';
import { BusClient, EVENT_TRANSPORT, type EventSubscription, type EventTransport } from '@gatehouse/bus';
import { cacheMetrics, sha256Hex } from '@gatehouse/platform';

/** A known key is re-checked after a minute at the latest: the safety net behind the revocation broadcast. */
const KNOWN_TTL_MS = 60_000;
/** Unknown keys are remembered briefly so a flood of bad keys does not become a flood of lookups. */
const UNKNOWN_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

/**
 * Key lookups of this gateway replica, cached by key hash. A revocation anywhere reaches every
 * replica through the `internal.api_key.revoked` broadcast and drops the keys at once.
 */
@Injectable()
export class ApiKeyCache implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, { key: ResolvedApiKey | null; expiresAt: number }>();
  /** Publishable keys are public (every page carries one): their hashes are kept, not computed per page view. */
  private readonly publishableHashes = new Map<string, string>();
  private subscription?: EventSubscription;

  constructor(
    private readonly bus: BusClient,
    @Inject(EVENT_TRANSPORT) private readonly events: EventTransport,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscription = await this.events.listen([InternalEvents.ApiKeyRevoked.name, InternalEvents.PublicationDomainsChanged.name], async (event) => {
      if (event.name === InternalEvents.PublicationDomainsChanged.name) this.dropPublication((event.data as { publicationId: string }).publicationId);
      else this.drop((event.data as ApiKeyRevokedData).keyHashes);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }

  async resolve(key: string): Promise<ResolvedApiKey | null> {
    const keyHash = this.hashOf(key);
    const cached = this.entries.get(keyHash);
    const hit = cached !== undefined && cached.expiresAt > Date.now();
    cacheMetrics.lookups.inc({ cache: 'api_keys', result: hit ? 'hit' : 'miss' });
    if (hit) return cached.key;
    const resolved = await this.bus.request(AdminRequests.ResolveApiKey, { keyHash });
    this.remember(keyHash, resolved);
    return resolved;
  }

  drop(keyHashes: string[]): void {
    for (const keyHash of keyHashes) this.entries.delete(keyHash);
  }

  /** A publication's keys carry its domains: after a change, they are looked up again. */
  dropPublication(publicationId: string): void {
    for (const [keyHash, entry] of this.entries) if (entry.key?.publicationId === publicationId) this.entries.delete(keyHash);
  }

  private hashOf(key: string): string {
    if (!key.startsWith('pk_')) return sha256Hex(key);
    let keyHash = this.publishableHashes.get(key);
    if (keyHash === undefined) {
      if (this.publishableHashes.size >= MAX_ENTRIES) this.publishableHashes.delete(this.publishableHashes.keys().next().value as string);
      keyHash = sha256Hex(key);
      this.publishableHashes.set(key, keyHash);
    }
    return keyHash;
  }

  private remember(keyHash: string, key: ResolvedApiKey | null): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, { key, expiresAt: Date.now() + (key ? KNOWN_TTL_MS : UNKNOWN_TTL_MS) });
  }
}
