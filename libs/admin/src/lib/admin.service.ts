import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/bus';
import { ServiceConfig } from '@gatehouse/platform';
import { IsEmail, IsOptional, IsString, IsUrl, Matches, MinLength } from 'class-validator';

export class AdminConfig extends ServiceConfig {
  /** The public address of the service: links, the `Secure` cookie flag, the processor webhook URL. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  /** First admin and publication, created when no staff exists yet (decisions A3). */
  @IsOptional()
  @IsEmail({}, { message: 'must be an email address' })
  BOOTSTRAP_ADMIN_EMAIL?: string;

  @IsOptional()
  @MinLength(8, { message: 'must be at least 8 characters' })
  BOOTSTRAP_ADMIN_PASSWORD?: string;

  @IsOptional()
  @IsString()
  BOOTSTRAP_PUBLICATION_NAME?: string;

  /** Comma separated host names; `*.example.com` matches any subdomain. */
  @IsOptional()
  @Matches(/^(\*\.)?[a-z0-9.-]+(,(\*\.)?[a-z0-9.-]+)*$/i, { message: 'must be host names separated by commas' })
  BOOTSTRAP_PUBLICATION_DOMAINS?: string;
}

@Module({})
export class AdminModule {}

/** Staff, sessions, publications and their domains, API keys, and the stats view. */
export const adminService: ServiceDefinition<AdminConfig> = {
  name: 'admin',
  schema: 'admin',
  module: AdminModule,
  config: AdminConfig,
  entities: [],
  migrations: [],
};
