import { ServiceConfig } from '@gatehouse/platform';
import { IsInt, Max, Min } from 'class-validator';

export class IdentityConfig extends ServiceConfig {
  /** bcrypt work factor of customer passwords (decisions D6): 12 in production, tests lower it. */
  @IsInt()
  @Min(4)
  @Max(15)
  BCRYPT_COST: number = 12;
}
