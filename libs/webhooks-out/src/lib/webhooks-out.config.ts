import { Flag, IncreasingSecondsList, ServiceConfig } from '@gatehouse/platform';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export class WebhooksOutConfig extends ServiceConfig {
  /** Accept http:// and private-network webhook targets (local development and tests only). */
  @Flag()
  ALLOW_INSECURE_WEBHOOK_URLS: boolean = false;

  /**
   * Encrypts the webhooks' signing secrets at rest (AES-256-GCM): 32 bytes, base64. Required in
   * production; elsewhere generated on first start and kept under DATA_DIR.
   */
  @IsOptional()
  @IsString()
  WEBHOOK_SECRETS_KEY?: string;

  /**
   * When the retries follow the first attempt, in seconds after it, increasing (decisions G3:
   * 10 s and 60 s). Tests compress the schedule through it.
   */
  @IncreasingSecondsList()
  WEBHOOK_RETRY_DELAYS_SECONDS: string = '10,60';

  /** How long one attempt may take, connection to response, before it counts as failed. */
  @IsInt({ message: 'must be an integer from 50 to 60000' })
  @Min(50, { message: 'must be an integer from 50 to 60000' })
  @Max(60_000, { message: 'must be an integer from 50 to 60000' })
  WEBHOOK_TIMEOUT_MS: number = 10_000;

  /** Days a finished delivery and its attempts stay in the delivery log. */
  @IsInt()
  @Min(1)
  DELIVERY_LOG_RETENTION_DAYS: number = 30;
}
