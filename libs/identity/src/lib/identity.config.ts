import { IncreasingSecondsList, ServiceConfig } from '@gatehouse/platform';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

export class IdentityConfig extends ServiceConfig {
  /** bcrypt work factor of customer passwords (decisions D6): 12 in production, tests lower it. */
  @IsInt()
  @Min(4)
  @Max(15)
  BCRYPT_COST: number = 12;

  /**
   * Seconds after a refresh token is used in which presenting it again is taken for a concurrent
   * refresh (two tabs), answered 401 `token_invalid` without revoking the family (decisions D3).
   */
  @IsInt()
  @Min(0)
  @Max(60)
  REFRESH_REUSE_GRACE_SECONDS: number = 10;

  /**
   * Seals the private halves of the access-token signing keys at rest (AES-256-GCM): 32 bytes,
   * base64. Required in production; elsewhere generated on first start and kept under DATA_DIR.
   */
  @IsOptional()
  @IsString()
  SIGNING_KEYS_KEY?: string;

  /**
   * The SMTP server account email goes through, e.g. `smtps://user:password@smtp.example.com:465`.
   * Unset: every message is kept in the local mailbox staff read through the admin API.
   */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** The From of account email; the publication's name is shown as its display name. */
  @IsString()
  @Matches(/^[^\s@<>]+@[^\s@<>]+$/, { message: 'must be an email address, e.g. no-reply@example.com' })
  EMAIL_FROM: string = 'no-reply@gatehouse.localhost';

  /** When a message that could not be sent is tried again, in seconds after the first attempt, increasing; then it is given up. */
  @IncreasingSecondsList()
  EMAIL_RETRY_DELAYS_SECONDS: string = '10,60,300,1800,7200';

  /** Days a refresh token is kept after it expired or was revoked (a used one stays until then). */
  @IsInt()
  @Min(1)
  REFRESH_TOKEN_RETENTION_DAYS: number = 30;

  /** Days account email is kept once sent or given up (the local mailbox shows it until then), and its links and codes once expired or used. */
  @IsInt()
  @Min(1)
  EMAIL_MESSAGE_RETENTION_DAYS: number = 30;
}
