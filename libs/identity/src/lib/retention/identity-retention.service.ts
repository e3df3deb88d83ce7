import { Injectable } from '@nestjs/common';
import { daysBefore, deleteInBatches, RetentionJob } from '@gatehouse/db';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { IdentityConfig } from '../identity.config';

export interface IdentityPruned {
  /** Refresh tokens expired or revoked before the cutoff (those of revoked families included). */
  refreshTokens: number;
  /** Families revoked before the cutoff, or left without a token. */
  refreshTokenFamilies: number;
  /** Account email sent or given up before the cutoff. */
  emailMessages: number;
  /** Links and codes of account email that expired or were used before the same cutoff. */
  emailTokens: number;
}

/**
 * Keeps identity's tables from growing without bound: refresh tokens REFRESH_TOKEN_RETENTION_DAYS
 * after they expired or were revoked (a used token stays until then, so presenting it again still
 * revokes its family), and account email EMAIL_MESSAGE_RETENTION_DAYS after it was created, once
 * sent or given up (a message still to send keeps its sealed link and code), and the links and
 * codes themselves as long after they expired or were used (dead either way: kept only so the logs
 * of that time can be read against them).
 */
@Injectable()
export class IdentityRetention extends RetentionJob<IdentityPruned> {
  constructor(
    dataSource: DataSource,
    clock: Clock,
    private readonly config: IdentityConfig,
  ) {
    super(dataSource, clock, 'identity');
  }

  protected async round(now: Date): Promise<IdentityPruned> {
    const tokensCutoff = [daysBefore(now, this.config.REFRESH_TOKEN_RETENTION_DAYS)];
    // A revoked family's tokens are all dead, the ones used before the revocation too.
    const revokedFamilyTokens = await deleteInBatches(
      this.dataSource,
      'refresh_tokens',
      'family_id IN (SELECT id FROM refresh_token_families WHERE revoked_at < $1)',
      tokensCutoff,
    );
    const refreshTokens = await deleteInBatches(this.dataSource, 'refresh_tokens', 'expires_at < $1 OR revoked_at < $1', tokensCutoff);
    // No token of a family left means none can be rotated into a new one: the sign-in has ended.
    const refreshTokenFamilies = await deleteInBatches(
      this.dataSource,
      'refresh_token_families',
      'created_at < $1 AND NOT EXISTS (SELECT 1 FROM refresh_tokens WHERE refresh_tokens.family_id = refresh_token_families.id)',
      tokensCutoff,
    );
    const emailCutoff = [daysBefore(now, this.config.EMAIL_MESSAGE_RETENTION_DAYS)];
    const emailMessages = await deleteInBatches(this.dataSource, 'email_messages', "status IN ('sent', 'failed') AND created_at < $1", emailCutoff);
    const emailTokens = await deleteInBatches(this.dataSource, 'email_tokens', 'expires_at < $1 OR used_at < $1', emailCutoff);
    return { refreshTokens: revokedFamilyTokens + refreshTokens, refreshTokenFamilies, emailMessages, emailTokens };
  }
}
