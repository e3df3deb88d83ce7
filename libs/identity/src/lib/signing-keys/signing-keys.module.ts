import { Module } from '@nestjs/common';
import { JwksHandler } from './jwks.handler';
import { IdentitySecretsBox } from './identity-secrets-box.service';
import { SigningKeysService } from './signing-keys.service';

@Module({ controllers: [JwksHandler], providers: [SigningKeysService, IdentitySecretsBox], exports: [SigningKeysService, IdentitySecretsBox] })
export class SigningKeysModule {}
