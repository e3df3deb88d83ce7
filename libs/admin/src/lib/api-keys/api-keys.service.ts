import { Injectable } from '@nestjs/common';
import {
  InternalEvents,
  type ApiKeyView,
  type CreatedApiKeyPair,
  type ResolvedApiKey,
  type RevokedApiKeys,
} from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { AppError, Clock, isUuid } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, In, IsNull, type FindOptionsWhere } from 'typeorm';
import { generateApiKeySecret } from './api-key-secret';
import { ApiKeyUsage } from './api-key-usage.service';
import { ApiKey } from './api-key.entity';

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly usage: ApiKeyUsage,
  ) {}

  /** Newest first; within a pair the publishable key first. */
  async list(publicationId: string): Promise<ApiKeyView[]> {
    const keys = await this.repository().find({ where: { publicationId }, order: { createdAt: 'DESC', kind: 'ASC' } });
    return keys.map(apiKeyView);
  }

  async createPair(publicationId: string, name: string): Promise<CreatedApiKeyPair> {
    if (!name.trim()) throw new AppError('validation_failed', 'The request is invalid.', [{ field: 'name', message: 'must not be empty' }]);
    const createdAt = this.clock.now();
    const publishable = generateApiKeySecret('publishable');
    const secret = generateApiKeySecret('secret');
    const keys = [publishable, secret].map(({ kind, key, prefix, keyHash }) => ({
      id: randomUUID(),
      publicationId,
      name,
      kind,
      prefix,
      keyHash,
      publishableKey: kind === 'publishable' ? key : null,
      createdAt,
    }));
    await this.dataSource.transaction(async (manager) => {
      // The unique index, not a prior look-up, decides, so two requests racing for one name cannot both win.
      const inserted = await manager.createQueryBuilder().insert().into(ApiKey).values(keys).orIgnore().returning('id').execute();
      if ((inserted.raw as unknown[]).length !== keys.length) {
        throw new AppError('conflict', `A key pair named "${name}" exists or existed in this publication; choose another name.`);
      }
    });
    return { name, publishableKey: publishable.key, secretKey: secret.key };
  }

  revokePair(publicationId: string, name: string): Promise<RevokedApiKeys> {
    return this.revoke(publicationId, { name }, `No key pair named "${name}".`);
  }

  async revokeKey(publicationId: string, keyId: string): Promise<RevokedApiKeys> {
    if (!isUuid(keyId)) throw new AppError('not_found', 'No such API key.');
    return this.revoke(publicationId, { id: keyId }, 'No such API key.');
  }

  /** The key's publication and kind, or null when the key is unknown or revoked. */
  async resolve(keyHash: string): Promise<ResolvedApiKey | null> {
    const key = await this.repository().findOne({ where: { keyHash, revokedAt: IsNull() }, relations: { publication: true } });
    if (!key) return null;
    this.usage.record(key, this.clock.now());
    const { domains, selfRegistration } = key.publication;
    return { keyId: key.id, kind: key.kind, publicationId: key.publicationId, domains, selfRegistration };
  }

  /**
   * Revocation is immediate and final (spec 2.1). Keys revoked before keep their first revocation
   * time but are announced again, so a gateway that missed the first announcement drops them now.
   */
  private revoke(publicationId: string, which: FindOptionsWhere<ApiKey>, notFound: string): Promise<RevokedApiKeys> {
    return this.dataSource.transaction(async (manager) => {
      const keys = await manager.findBy(ApiKey, { ...which, publicationId });
      if (keys.length === 0) throw new AppError('not_found', notFound);
      const keyIds = keys.map((key) => key.id);
      const keyHashes = keys.map((key) => key.keyHash);
      await manager.update(ApiKey, { id: In(keyIds), revokedAt: IsNull() }, { revokedAt: this.clock.now() });
      await this.outbox.add(manager, InternalEvents.ApiKeyRevoked, { keyIds, keyHashes }, publicationId);
      return { keyHashes };
    });
  }

  private repository() {
    return this.dataSource.getRepository(ApiKey);
  }
}

function apiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    kind: key.kind,
    prefix: key.prefix,
    publishableKey: key.publishableKey,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
