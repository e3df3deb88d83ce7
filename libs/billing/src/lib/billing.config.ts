import { ServiceConfig } from '@gatehouse/platform';
import { IsDefined, IsInt, IsOptional, IsString, IsUrl, Matches, Min, ValidateIf } from 'class-validator';

export class BillingConfig extends ServiceConfig {
  /** Base URL of the payment processor's API; unset: the processor's own. Tests point it at tools/fake-processor. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  PROCESSOR_API_URL?: string;

  /**
   * Set by `npm start` while the local fake processor stands in (tools/fake-processor): a key it
   * accepts, which the dashboard offers so a new publication connects in one click.
   */
  @IsOptional()
  @Matches(/^sk_test_[A-Za-z0-9_]{8,200}$/, { message: 'must be a test secret key (sk_test_…)' })
  LOCAL_PROCESSOR_KEY?: string;

  /** Verifies inbound processor webhooks that name no publication. */
  @IsOptional()
  @IsString()
  PROCESSOR_WEBHOOK_SECRET?: string;

  /** The public address of the service, used for the processor webhook endpoint it creates. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  /**
   * Encrypts the publications' processor secret key and webhook secret at rest (AES-256-GCM): 32
   * bytes, base64. Required in production; elsewhere generated once under DATA_DIR when unset.
   * Checked here, with the rest of the configuration, so that a bad one stops start-up with one line.
   */
  @ValidateIf((config: BillingConfig) => config.PROCESSOR_SETTINGS_KEY !== undefined || process.env['NODE_ENV'] === 'production')
  @IsDefined({ message: 'is required in production' })
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes, base64' })
  PROCESSOR_SETTINGS_KEY?: string;

  /** Days billing keeps an inbound processor event after processing it (its record deduplicates redeliveries), and a checkout never completed after it started. */
  @IsInt()
  @Min(1)
  PROCESSOR_EVENT_RETENTION_DAYS: number = 30;
}
