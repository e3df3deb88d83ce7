import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/bus';
import { ServiceConfig } from '@gatehouse/platform';
import { CreateSigningKeys1763710000000 } from './migrations/1763710000000-create-signing-keys';
import { SigningKey } from './signing-keys/signing-key.entity';
import { SigningKeysModule } from './signing-keys/signing-keys.module';

export class IdentityConfig extends ServiceConfig {}

@Module({ imports: [SigningKeysModule] })
export class IdentityModule {}

/** Customers, password hashes, refresh-token families and the JWT signing keys. */
export const identityService: ServiceDefinition<IdentityConfig> = {
  name: 'identity',
  schema: 'identity',
  module: IdentityModule,
  config: IdentityConfig,
  entities: [SigningKey],
  migrations: [CreateSigningKeys1763710000000],
};
