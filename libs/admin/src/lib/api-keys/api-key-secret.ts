import type { ApiKeyKind } from '@gatehouse/contracts';
import { randomToken, sha256Hex } from '@gatehouse/platform';

const KIND_PREFIX: Record<ApiKeyKind, string> = { publishable: 'pk_', secret: 'sk_' };
const API_KEY_PREFIX_LENGTH = 12;

export interface ApiKeySecret {
  kind: ApiKeyKind;
  /** The full key, given to the publisher once. */
  key: string;
  prefix: string;
  keyHash: string;
}

/** A new key: its kind's prefix and 256 random bits, e.g. `pk_3q2-7wXX…` (46 characters). */
export function generateApiKeySecret(kind: ApiKeyKind): ApiKeySecret {
  const key = KIND_PREFIX[kind] + randomToken();
  return { kind, key, prefix: key.slice(0, API_KEY_PREFIX_LENGTH), keyHash: sha256Hex(key) };
}
