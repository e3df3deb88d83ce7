import { Injectable } from '@nestjs/common';
import { LOGIN_CODE_MAX_ATTEMPTS, type EmailKind } from '@gatehouse/contracts';
import { AppError, Clock, randomToken, sha256Hex } from '@gatehouse/platform';
import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { DataSource, IsNull, MoreThan, type EntityManager } from 'typeorm';
import type { Customer } from '../customers/customer.entity';
import { EmailToken } from './email-token.entity';

export interface IssuedEmailToken {
  token: string;
  /** Six digits, for sign-in codes only. */
  code?: string;
}

export function emailTokenInvalid(): AppError {
  return new AppError('email_token_invalid', 'This link is unknown, expired or already used. Ask for a new email.');
}

export function codeInvalid(): AppError {
  return new AppError('code_invalid', 'This code is wrong, expired or used up. Ask for a new one.');
}

/**
 * Single-use credentials sent by email. A new one of a purpose replaces the customer's earlier
 * ones; using one is one statement, so of two concurrent uses exactly one succeeds.
 */
@Injectable()
export class EmailTokens {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async issue(manager: EntityManager, customer: Customer, purpose: EmailKind, ttlMinutes: number, withCode = false): Promise<IssuedEmailToken> {
    const now = this.clock.now();
    await manager.update(EmailToken, { customerId: customer.id, purpose, usedAt: IsNull() }, { usedAt: now });
    const id = randomUUID();
    const token = randomToken();
    const code = withCode ? String(randomInt(0, 1_000_000)).padStart(6, '0') : undefined;
    await manager.insert(EmailToken, {
      id,
      publicationId: customer.publicationId,
      customerId: customer.id,
      purpose,
      tokenHash: sha256Hex(token),
      codeHash: code === undefined ? null : codeHash(id, code),
      wrongCodes: 0,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlMinutes * 60_000),
      usedAt: null,
    });
    return { token, code };
  }

  /** Ends every unused token of the customer, in the caller's transaction: the address they were sent to is no longer the customer's. */
  async revokeAllOf(manager: EntityManager, customerId: string): Promise<void> {
    await manager.update(EmailToken, { customerId, usedAt: IsNull() }, { usedAt: this.clock.now() });
  }

  /** Uses the token up in the caller's transaction and answers its customer's id; 401 email_token_invalid otherwise. */
  async consume(manager: EntityManager, publicationId: string, purpose: EmailKind, token: string): Promise<string> {
    const [rows]: [Array<{ customer_id: string }>, number] = await manager.query(
      `UPDATE email_tokens SET used_at = $4
       WHERE token_hash = $1 AND publication_id = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $4
       RETURNING customer_id`,
      [sha256Hex(token), publicationId, purpose, this.clock.now()],
    );
    if (rows.length === 0) throw emailTokenInvalid();
    return rows[0].customer_id;
  }

  /**
   * Uses up the customer's current sign-in code when `code` is it. A wrong code counts, in its own
   * committed transaction; the LOGIN_CODE_MAX_ATTEMPTS-th wrong one uses the code (and its link) up.
   */
  async consumeCode(customer: Customer, code: string): Promise<void> {
    const matched = await this.dataSource.transaction(async (manager) => {
      const now = this.clock.now();
      const current = await manager.findOne(EmailToken, {
        where: { customerId: customer.id, publicationId: customer.publicationId, purpose: 'login_code', usedAt: IsNull(), expiresAt: MoreThan(now) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!current?.codeHash) return false;
      if (sameHash(current.codeHash, codeHash(current.id, code))) {
        await manager.update(EmailToken, { id: current.id }, { usedAt: now });
        return true;
      }
      const wrongCodes = current.wrongCodes + 1;
      await manager.update(EmailToken, { id: current.id }, { wrongCodes, usedAt: wrongCodes >= LOGIN_CODE_MAX_ATTEMPTS ? now : null });
      return false;
    });
    if (!matched) throw codeInvalid();
  }
}

function codeHash(tokenId: string, code: string): string {
  return sha256Hex(`${tokenId}:${code}`);
}

function sameHash(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}
