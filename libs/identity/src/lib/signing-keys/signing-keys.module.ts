import { Module } from '@nestjs/common';
import { JwksHandler } from './jwks.handler';
import { SigningKeysService } from './signing-keys.service';

@Module({ controllers: [JwksHandler], providers: [SigningKeysService], exports: [SigningKeysService] })
export class SigningKeysModule {}
