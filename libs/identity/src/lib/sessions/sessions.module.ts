import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { SigningKeysModule } from '../signing-keys/signing-keys.module';
import { AccessTokenSigner } from './access-token-signer.service';
import { RefreshTokens } from './refresh-tokens.service';
import { SessionsService } from './sessions.service';

@Module({
  imports: [CustomersModule, SigningKeysModule],
  providers: [SessionsService, AccessTokenSigner, RefreshTokens],
  exports: [SessionsService, RefreshTokens],
})
export class SessionsModule {}
