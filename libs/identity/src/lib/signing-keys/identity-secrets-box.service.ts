import { Injectable, Logger } from '@nestjs/common';
import { loadEncryptionKey, type SecretBox } from '@gatehouse/platform';
import { join } from 'node:path';
import { IdentityConfig } from '../identity.config';

/**
 * What identity seals at rest with SIGNING_KEYS_KEY (AES-256-GCM): the signing keys' private
 * halves, and the credentials of account email waiting to be sent.
 */
@Injectable()
export class IdentitySecretsBox {
  readonly box: SecretBox;

  constructor(config: IdentityConfig) {
    const keyFile = join(config.DATA_DIR, 'signing-keys.key');
    const { box, generated } = loadEncryptionKey('SIGNING_KEYS_KEY', config.SIGNING_KEYS_KEY, keyFile);
    if (!config.SIGNING_KEYS_KEY) {
      new Logger(IdentitySecretsBox.name).warn(
        `SIGNING_KEYS_KEY is not set: identity's secrets are sealed with the key ${generated ? 'just generated in' : 'kept in'} ${keyFile}. Set it in production.`,
      );
    }
    this.box = box;
  }

  seal(plain: string): string {
    return this.box.encrypt(plain);
  }

  open(sealed: string): string {
    return this.box.decrypt(sealed);
  }
}
