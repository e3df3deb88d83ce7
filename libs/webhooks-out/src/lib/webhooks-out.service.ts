import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/bus';
import { Flag, ServiceConfig } from '@gatehouse/platform';

export class WebhooksOutConfig extends ServiceConfig {
  /** Accept http:// and private-network webhook targets (local development and tests only). */
  @Flag()
  ALLOW_INSECURE_WEBHOOK_URLS: boolean = false;
}

@Module({})
export class WebhooksOutModule {}

/** Outbound webhook registrations, deliveries and their retry schedule. */
export const webhooksOutService: ServiceDefinition<WebhooksOutConfig> = {
  name: 'webhooks-out',
  schema: 'webhooks_out',
  module: WebhooksOutModule,
  config: WebhooksOutConfig,
  entities: [],
  migrations: [],
};
