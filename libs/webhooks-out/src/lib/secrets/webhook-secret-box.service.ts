import { Injectable, Logger } from '@nestjs/common';
import { loadEncryptionKey, type SecretBox } from '@gatehouse/platform';
import { join } from 'node:path';
import { WebhooksOutConfig } from '../webhooks-out.config';

const KEY_FILE = 'webhook-secrets.key';

/** Keeps the registrations' signing secrets encrypted at rest under WEBHOOK_SECRETS_KEY. */
@Injectable()
export class WebhookSecretBox {
  private readonly box: SecretBox;

  constructor(config: WebhooksOutConfig) {
    const keyFile = join(config.DATA_DIR, KEY_FILE);
    const { box, generated } = loadEncryptionKey('WEBHOOK_SECRETS_KEY', config.WEBHOOK_SECRETS_KEY, keyFile);
    if (generated) {
      new Logger(WebhookSecretBox.name).warn(
        `WEBHOOK_SECRETS_KEY is not set: generated one in ${keyFile}. Set WEBHOOK_SECRETS_KEY (32 bytes, base64) outside local development; ` +
          'webhook secrets stored under a key cannot be read without it.',
      );
    }
    this.box = box;
  }

  seal(secret: string): string {
    return this.box.encrypt(secret);
  }

  open(sealed: string): string {
    return this.box.decrypt(sealed);
  }
}
