import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/platform';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { DeliveryAttempt } from './deliveries/delivery-attempt.entity';
import { Delivery } from './deliveries/delivery.entity';
import { CreateWebhooksOutTables1763767431852 } from './migrations/1763767431852-create-webhooks-out-tables';
import { PersonalDataModule } from './personal-data/personal-data.module';
import { RegistrationsModule } from './registrations/registrations.module';
import { Webhook } from './registrations/webhook.entity';
import { WebhooksOutConfig } from './webhooks-out.config';

export { WebhooksOutConfig } from './webhooks-out.config';

@Module({ imports: [RegistrationsModule, DeliveriesModule, PersonalDataModule] })
export class WebhooksOutModule {}

/** Outbound webhook registrations, deliveries and their retry schedule. */
export const webhooksOutService: ServiceDefinition<WebhooksOutConfig> = {
  name: 'webhooks-out',
  schema: 'webhooks_out',
  module: WebhooksOutModule,
  config: WebhooksOutConfig,
  entities: [Webhook, Delivery, DeliveryAttempt],
  migrations: [CreateWebhooksOutTables1763767431852],
};
