import { Injectable } from '@nestjs/common';
import type { EmailKind } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, LessThanOrEqual, MoreThan } from 'typeorm';
import { EmailRequest } from './email-request.entity';

const MAX_REQUESTS = 5;
const WINDOW_MS = 15 * 60 * 1000;

/**
 * At most 5 requests for one kind of account email to one address per publication in any 15
 * minutes, counted whether or not a customer has the address, so the answer tells nothing.
 */
@Injectable()
export class EmailRequestThrottle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async count(publicationId: string, email: string, kind: EmailKind): Promise<void> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - WINDOW_MS);
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`identity:email-request:${publicationId}:${kind}:${email}`]);
      await manager.delete(EmailRequest, { publicationId, email, kind, requestedAt: LessThanOrEqual(windowStart) });
      const recent = await manager.find(EmailRequest, {
        where: { publicationId, email, kind, requestedAt: MoreThan(windowStart) },
        order: { requestedAt: 'ASC' },
        take: MAX_REQUESTS,
      });
      if (recent.length >= MAX_REQUESTS) {
        const retryAfterMs = recent[0].requestedAt.getTime() + WINDOW_MS - now.getTime();
        throw new AppError('rate_limited', `Too many emails asked for this address. Try again in ${Math.ceil(retryAfterMs / 1000)} seconds.`);
      }
      await manager.insert(EmailRequest, { id: randomUUID(), publicationId, email, kind, requestedAt: now });
    });
  }
}
