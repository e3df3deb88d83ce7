import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/bus';
import { ServiceConfig } from '@gatehouse/platform';
import { IsInt, Min } from 'class-validator';

export class AccessConfig extends ServiceConfig {
  /** Days a past_due subscriber keeps access (decisions E6). */
  @IsInt()
  @Min(0)
  PAST_DUE_GRACE_DAYS: number = 3;
}

@Module({})
export class AccessModule {}

/** Paywalls, segments, experiments, meters, visitor passes, access decisions and event intake. */
export const accessService: ServiceDefinition<AccessConfig> = {
  name: 'access',
  schema: 'access',
  module: AccessModule,
  config: AccessConfig,
  entities: [],
  migrations: [],
};
