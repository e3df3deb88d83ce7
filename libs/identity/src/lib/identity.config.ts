import { ServiceConfig } from '@gatehouse/platform';
import { IsInt, Max, Min } from 'class-validator';

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
}
