import { Module } from '@nestjs/common';
import { WebhooksOutPersonalDataHandler } from './webhooks-out-personal-data.handler';
import { WebhooksOutPersonalDataService } from './webhooks-out-personal-data.service';

@Module({ controllers: [WebhooksOutPersonalDataHandler], providers: [WebhooksOutPersonalDataService] })
export class PersonalDataModule {}
