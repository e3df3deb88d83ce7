import { Module } from '@nestjs/common';
import { ApiKeyUsage } from './api-key-usage.service';
import { ApiKeysHandler } from './api-keys.handler';
import { ApiKeysService } from './api-keys.service';

@Module({ controllers: [ApiKeysHandler], providers: [ApiKeysService, ApiKeyUsage] })
export class ApiKeysModule {}
