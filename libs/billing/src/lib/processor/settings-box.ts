import { Logger, type Provider } from '@nestjs/common';
import { loadEncryptionKey, SecretBox } from '@gatehouse/platform';
import { join } from 'node:path';
import { BillingConfig } from '../billing.config';

/** The AES-256-GCM box sealing processor secrets, keyed by PROCESSOR_SETTINGS_KEY (or a generated key outside production). */
export const settingsBoxProvider: Provider = {
  provide: SecretBox,
  inject: [BillingConfig],
  useFactory: (config: BillingConfig): SecretBox => {
    const keyFile = join(config.DATA_DIR, 'processor-settings.key');
    const { box, generated } = loadEncryptionKey('PROCESSOR_SETTINGS_KEY', config.PROCESSOR_SETTINGS_KEY, keyFile);
    if (!config.PROCESSOR_SETTINGS_KEY) {
      new Logger('ProcessorSettings').warn(
        `PROCESSOR_SETTINGS_KEY is not set: processor secrets are sealed with the key ${generated ? 'just generated in' : 'kept in'} ${keyFile}. ` +
          'Set PROCESSOR_SETTINGS_KEY (32 bytes, base64) before going to production.',
      );
    }
    return box;
  },
};
