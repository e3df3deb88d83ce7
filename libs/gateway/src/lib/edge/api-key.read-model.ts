import { Injectable } from '@nestjs/common';
import { AdminRequests, InternalEvents, type ResolvedApiKey } from '@gatehouse/contracts';
import { BusClient, on, ReadModels, type ReadModel } from '@gatehouse/bus';
import { sha256Hex } from '@gatehouse/platform';

const MAX_KEYS = 10_000;

/**
 * API key lookups of this gateway replica, by key hash. A revocation, or a change of the
 * publication's domains or self-registration setting (which a lookup carries), reaches every replica as a change notice and
 * drops the keys at once; a known key is looked up again after a minute at the latest, an unknown
 * one after ten seconds, so a flood of bad keys is not a flood of lookups.
 */
@Injectable()
export class ApiKeyReadModel {
  private readonly keys: ReadModel<string, { key: ResolvedApiKey | null }>;
  /** Publishable keys are public (every page carries one): their hashes are kept, not computed per page view. */
  private readonly publishableHashes: ReadModel<string, string>;

  constructor(bus: BusClient, readModels: ReadModels) {
    this.keys = readModels.define({
      name: 'api-keys',
      load: async (keyHash) => ({ key: await bus.request(AdminRequests.ResolveApiKey, { keyHash }) }),
      max: MAX_KEYS,
      freshMs: 60_000,
      freshMsOf: ({ key }) => (key ? 60_000 : 10_000),
      // Admin unreachable: keys known before keep working (no revocation can happen meanwhile).
      staleOnFailure: { retryMs: 5_000 },
      changedBy: [
        on(InternalEvents.ApiKeyRevoked, (event, model) => model.forget(...event.data.keyHashes)),
        on(InternalEvents.PublicationChanged, (event, model) => model.forgetWhere(({ key }) => key?.publicationId === event.data.publicationId)),
      ],
    });
    this.publishableHashes = readModels.define({ name: 'publishable-key-hashes', max: MAX_KEYS, freshMs: 24 * 60 * 60_000 });
  }

  async resolve(key: string): Promise<ResolvedApiKey | null> {
    return (await this.keys.get(this.hashOf(key))).key;
  }

  private hashOf(key: string): string {
    if (!key.startsWith('pk_')) return sha256Hex(key);
    let keyHash = this.publishableHashes.peek(key);
    if (keyHash === undefined) {
      keyHash = sha256Hex(key);
      this.publishableHashes.set(key, keyHash);
    }
    return keyHash;
  }
}
