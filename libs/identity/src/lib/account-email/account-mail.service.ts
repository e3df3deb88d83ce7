import { Injectable } from '@nestjs/common';
import type { EmailKind } from '@gatehouse/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { normaliseEmail } from '../customers/customer-email';
import type { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';
import { EmailQueue } from '../email/email-queue.service';
import { EmailRequestThrottle } from './email-request-throttle.service';
import { EmailTokens } from './email-tokens.service';

/** How a kind of account email's credential is made: its lifetime, and whether it carries a 6-digit code. */
export interface AccountMailKind {
  kind: EmailKind;
  ttlMinutes: number;
  withCode?: boolean;
}

/** Issues an account email's single-use credential and queues the message carrying it. */
@Injectable()
export class AccountMail {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly tokens: EmailTokens,
    private readonly queue: EmailQueue,
    private readonly throttle: EmailRequestThrottle,
  ) {}

  /** In the caller's transaction, so the message goes out only if the change it belongs to commits. */
  async send(manager: EntityManager, customer: Customer, mail: AccountMailKind, returnUrl: string | null): Promise<void> {
    const secrets = await this.tokens.issue(manager, customer, mail.kind, mail.ttlMinutes, mail.withCode);
    await this.queue.enqueue(manager, {
      publicationId: customer.publicationId,
      customerId: customer.id,
      kind: mail.kind,
      to: customer.email,
      recipientName: customer.name,
      language: customer.language,
      secrets,
      returnUrl,
    });
  }

  /**
   * A reader asking by address: throttled per address whether or not it is a customer's, and the
   * same answer either way; only a customer's address gets a message.
   */
  async sendToAddress(publicationId: string, address: string, mail: AccountMailKind, returnUrl: string | null): Promise<void> {
    const email = normaliseEmail(address);
    await this.throttle.request(publicationId, mail.kind, email);
    const customer = await this.customers.findByEmail(publicationId, email);
    await this.dataSource.transaction(async (manager) => {
      if (customer) await this.send(manager, customer, mail, returnUrl);
    });
  }
}
