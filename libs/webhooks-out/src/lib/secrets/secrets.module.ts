import { Module } from '@nestjs/common';
import { WebhookSecretBox } from './webhook-secret-box.service';

@Module({ providers: [WebhookSecretBox], exports: [WebhookSecretBox] })
export class SecretsModule {}
