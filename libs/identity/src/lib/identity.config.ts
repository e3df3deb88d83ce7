import { ServiceConfig } from '@gatehouse/platform';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

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
}
