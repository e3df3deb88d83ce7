import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/bus';
import { ServiceConfig } from '@gatehouse/platform';
import { IsOptional, IsString, IsUrl } from 'class-validator';

export class BillingConfig extends ServiceConfig {
  /** Base URL of the payment processor's API; unset: the processor's own. Tests point it at tools/fake-processor. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  PROCESSOR_API_URL?: string;

  /** Verifies inbound processor webhooks that name no publication. */
  @IsOptional()
  @IsString()
  PROCESSOR_WEBHOOK_SECRET?: string;

  /** The public address of the service, used for the processor webhook endpoint it creates. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;
}

@Module({})
export class BillingModule {}

/** Products, prices, subscriptions, processor settings and processed processor events. */
export const billingService: ServiceDefinition<BillingConfig> = {
  name: 'billing',
  schema: 'billing',
  module: BillingModule,
  config: BillingConfig,
  entities: [],
  migrations: [],
};
