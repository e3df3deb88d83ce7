import { Injectable } from '@nestjs/common';
import type { EmailKind } from '@gatehouse/contracts';
import { AttemptThrottle } from '@gatehouse/db';
import { DataSource } from 'typeorm';

/**
 * At most 5 requests for one kind of account email to one address per publication in 15
 * minutes, counted whether or not a customer has the address, so the answer tells nothing.
 */
@Injectable()
export class EmailRequestThrottle extends AttemptThrottle {
  constructor(dataSource: DataSource) {
    super(dataSource, { name: 'account-email', attempts: 5, windowSeconds: 15 * 60, refusal: 'Too many emails asked for this address.' });
  }

  request(publicationId: string, kind: EmailKind, email: string): Promise<void> {
    return this.count(`${publicationId}:${kind}:${email}`);
  }
}
