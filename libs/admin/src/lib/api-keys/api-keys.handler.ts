import { Controller } from '@nestjs/common';
import {
  AdminRequests,
  type ApiKeyView,
  type CreatedApiKeyPair,
  type RequestOf,
  type ResolvedApiKey,
  type RevokedApiKeys,
} from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { ApiKeysService } from './api-keys.service';

const { ResolveApiKey, ListApiKeys, CreateApiKeyPair, RevokeApiKeyPair, RevokeApiKey } = AdminRequests;

@Controller()
export class ApiKeysHandler {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Handles(ResolveApiKey)
  resolve({ keyHash }: RequestOf<typeof ResolveApiKey>): Promise<ResolvedApiKey | null> {
    return this.apiKeys.resolve(keyHash);
  }

  @Handles(ListApiKeys)
  list({ publicationId }: RequestOf<typeof ListApiKeys>): Promise<ApiKeyView[]> {
    return this.apiKeys.list(publicationId);
  }

  @Handles(CreateApiKeyPair)
  createPair({ publicationId, name }: RequestOf<typeof CreateApiKeyPair>): Promise<CreatedApiKeyPair> {
    return this.apiKeys.createPair(publicationId, name);
  }

  @Handles(RevokeApiKeyPair)
  revokePair({ publicationId, name }: RequestOf<typeof RevokeApiKeyPair>): Promise<RevokedApiKeys> {
    return this.apiKeys.revokePair(publicationId, name);
  }

  @Handles(RevokeApiKey)
  revokeKey({ publicationId, keyId }: RequestOf<typeof RevokeApiKey>): Promise<RevokedApiKeys> {
    return this.apiKeys.revokeKey(publicationId, keyId);
  }
}
