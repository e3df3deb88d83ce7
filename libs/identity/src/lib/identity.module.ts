import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/platform';
import { AccountEmailModule } from './account-email/account-email.module';
import { EmailToken } from './account-email/email-token.entity';
import { CustomerAuthModule } from './auth/customer-auth.module';
import { CustomerImportModule } from './customer-import/customer-import.module';
import { CustomerRecordsModule } from './customer-records/customer-records.module';
import { Customer } from './customers/customer.entity';
import { CustomersModule } from './customers/customers.module';
import { EmailMessage } from './email/email-message.entity';
import { EmailTemplate } from './email/email-template.entity';
import { EmailModule } from './email/email.module';
import { IdentityConfig } from './identity.config';
import { CreateSigningKeys1763710000000 } from './migrations/1763710000000-create-signing-keys';
import { CreateCustomers1763720000000 } from './migrations/1763720000000-create-customers';
import { CreateRefreshTokens1763730000000 } from './migrations/1763730000000-create-refresh-tokens';
import { FreeDeletedCustomersEmails1763742529955 } from './migrations/1763742529955-free-deleted-customers-emails';
import { CreateAccountEmailTables1763830000000 } from './migrations/1763830000000-create-account-email-tables';
import { CountThrottlesInOneTable1764100000000 } from './migrations/1764100000000-count-throttles-in-one-table';
import { CreateErasures1764300000000 } from './migrations/1764300000000-create-erasures';
import { PersonalDataModule } from './personal-data/personal-data.module';
import { IdentityRetention } from './retention/identity-retention.service';
import { RefreshTokenFamily } from './sessions/refresh-token-family.entity';
import { RefreshToken } from './sessions/refresh-token.entity';
import { SigningKey } from './signing-keys/signing-key.entity';
import { SigningKeysModule } from './signing-keys/signing-keys.module';
import { IdentitySecretsBox } from './signing-keys/identity-secrets-box.service';
import { SigningKeysService } from './signing-keys/signing-keys.service';

export { IdentityConfig, IdentityRetention, IdentitySecretsBox, SigningKeysService };

@Module({ imports: [SigningKeysModule, CustomersModule, CustomerAuthModule, CustomerRecordsModule, EmailModule, AccountEmailModule, PersonalDataModule, CustomerImportModule], providers: [IdentityRetention] })
export class IdentityModule {}

/** Customers, password hashes, refresh-token families, the JWT signing keys and account email. */
export const identityService: ServiceDefinition<IdentityConfig> = {
  name: 'identity',
  schema: 'identity',
  module: IdentityModule,
  config: IdentityConfig,
  entities: [SigningKey, Customer, RefreshTokenFamily, RefreshToken, EmailToken, EmailMessage, EmailTemplate],
  migrations: [
    CreateSigningKeys1763710000000,
    CreateCustomers1763720000000,
    CreateRefreshTokens1763730000000,
    FreeDeletedCustomersEmails1763742529955,
    CreateAccountEmailTables1763830000000,
    CountThrottlesInOneTable1764100000000,
    CreateErasures1764300000000,
  ],
};
