import { Injectable } from '@nestjs/common';
import { REFRESH_TOKEN_TTL_DAYS } from '@gatehouse/contracts';
import { AppError, Clock, randomToken, sha256Hex } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { IdentityConfig } from '../identity.config';
import { RefreshTokenFamily } from './refresh-token-family.entity';
import { RefreshToken } from './refresh-token.entity';

const REFRESH_TOKEN_TTL_MS = REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000;

/**
 * Uses up the presented token and issues its successor in the same family, in one statement: of
 * two concurrent rotations of one token the second waits for the first's row lock, then finds
 * the token used and rotates nothing.
 */
const ROTATE = `
  WITH used AS (
    UPDATE refresh_tokens AS token SET used_at = $3::timestamptz
    FROM refresh_token_families AS family
    WHERE token.token_hash = $1 AND token.publication_id = $2::uuid
      AND token.used_at IS NULL AND token.revoked_at IS NULL AND token.expires_at > $3::timestamptz
      AND family.id = token.family_id AND family.revoked_at IS NULL
    RETURNING token.family_id, token.customer_id, token.publication_id
  )
  INSERT INTO refresh_tokens (id, family_id, customer_id, publication_id, token_hash, issued_at, expires_at)
  SELECT $4::uuid, family_id, customer_id, publication_id, $5::text, $3::timestamptz, $6::timestamptz FROM used
  RETURNING customer_id`;

const USED_AT = `
  SELECT token.used_at FROM refresh_tokens AS token JOIN refresh_token_families AS family ON family.id = token.family_id
  WHERE token.token_hash = $1 AND token.publication_id = $2::uuid AND token.revoked_at IS NULL AND family.revoked_at IS NULL`;

const REVOKE_FAMILY = `
  WITH family AS (
    UPDATE refresh_token_families SET revoked_at = $3::timestamptz
    WHERE revoked_at IS NULL
      AND id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND publication_id = $2::uuid)
    RETURNING id
  )
  UPDATE refresh_tokens SET revoked_at = $3::timestamptz
  WHERE family_id IN (SELECT id FROM family) AND used_at IS NULL AND revoked_at IS NULL`;

const REVOKE_CUSTOMER_FAMILIES = `
  WITH family AS (
    UPDATE refresh_token_families SET revoked_at = $3::timestamptz
    WHERE customer_id = $1::uuid AND publication_id = $2::uuid AND revoked_at IS NULL
    RETURNING id
  )
  UPDATE refresh_tokens SET revoked_at = $3::timestamptz
  WHERE family_id IN (SELECT id FROM family) AND used_at IS NULL AND revoked_at IS NULL`;

/** The customer of a live token (unused, unrevoked, unexpired, its family alive): who "sign out everywhere" is for. */
const LIVE_TOKEN_OWNER = `
  SELECT token.customer_id FROM refresh_tokens AS token JOIN refresh_token_families AS family ON family.id = token.family_id
  WHERE token.token_hash = $1 AND token.publication_id = $2::uuid AND token.used_at IS NULL AND token.revoked_at IS NULL
    AND token.expires_at > $3::timestamptz AND family.revoked_at IS NULL`;

export interface RotatedRefreshToken {
  customerId: string;
  refreshToken: string;
}

export function refreshTokenInvalid(): AppError {
  return new AppError('refresh_token_invalid', 'The refresh token is unknown, expired, revoked or already used.');
}

/** Single-use refresh tokens in families (decisions D3), scoped by publication. */
@Injectable()
export class RefreshTokens {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: IdentityConfig,
  ) {}

  /** A new family, for a login or a registration; returns its first token. */
  async startFamily(customer: { id: string; publicationId: string }): Promise<string> {
    const now = this.clock.now();
    const token = randomToken();
    const familyId = randomUUID();
    const owner = { customerId: customer.id, publicationId: customer.publicationId };
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(RefreshTokenFamily, { id: familyId, ...owner, createdAt: now, revokedAt: null });
      await manager.insert(RefreshToken, {
        id: randomUUID(),
        familyId,
        ...owner,
        tokenHash: sha256Hex(token),
        issuedAt: now,
        expiresAt: expiryFrom(now),
        usedAt: null,
        revokedAt: null,
      });
    });
    return token;
  }

  async rotate(publicationId: string, presented: string): Promise<RotatedRefreshToken> {
    const now = this.clock.now();
    const successor = randomToken();
    const rows: Array<{ customer_id: string }> = await this.dataSource.query(ROTATE, [
      sha256Hex(presented),
      publicationId,
      now,
      randomUUID(),
      sha256Hex(successor),
      expiryFrom(now),
    ]);
    if (rows.length === 0) {
      // Used a moment ago: a concurrent refresh of the same token (two tabs) won. This one loses
      // without revoking the winner's family (decisions D3).
      const [used]: Array<{ used_at: Date | null }> = await this.dataSource.query(USED_AT, [sha256Hex(presented), publicationId]);
      if (used?.used_at && now.getTime() - used.used_at.getTime() <= this.config.REFRESH_REUSE_GRACE_SECONDS * 1000) {
        throw new AppError('token_invalid', 'This refresh token was used by a concurrent refresh a moment ago; use the tokens that refresh returned.');
      }
      // A used token presented again means someone else holds a copy of it (or of its successor):
      // nothing in the family can be trusted. An expired or revoked token's family is dead anyway.
      await this.revokeFamilyOf(publicationId, presented);
      throw refreshTokenInvalid();
    }
    return { customerId: rows[0].customer_id, refreshToken: successor };
  }

  /** Ends every session of the customer, in the caller's transaction. */
  async revokeAllOf(manager: EntityManager, customer: { id: string; publicationId: string }): Promise<void> {
    await manager.query(REVOKE_CUSTOMER_FAMILIES, [customer.id, customer.publicationId, this.clock.now()]);
  }

  /**
   * Every family of the live token's customer: the reader signs out on all devices. A dead token
   * (used, revoked, expired) ends its own family only, so an old copy of a token cannot sign the reader out everywhere.
   */
  async revokeAllOfTokenOwner(publicationId: string, token: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const now = this.clock.now();
      const rows: Array<{ customer_id: string }> = await manager.query(LIVE_TOKEN_OWNER, [sha256Hex(token), publicationId, now]);
      if (rows.length === 0) await manager.query(REVOKE_FAMILY, [sha256Hex(token), publicationId, now]);
      else await manager.query(REVOKE_CUSTOMER_FAMILIES, [rows[0].customer_id, publicationId, now]);
    });
  }

  /** Does nothing for a token unknown in the publication. */
  async revokeFamilyOf(publicationId: string, token: string): Promise<void> {
    await this.dataSource.query(REVOKE_FAMILY, [sha256Hex(token), publicationId, this.clock.now()]);
  }
}



function expiryFrom(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + REFRESH_TOKEN_TTL_MS);
}
