import { Injectable } from '@nestjs/common';
import { AccountEmailRequests, EMAIL_VERIFICATION_TTL_MINUTES, Events, type CustomerProfile, type EmailRequestAccepted, type RequestOf } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { AppError, Clock } from '@gatehouse/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { toCustomerEventData, toCustomerProfile } from '../customers/customer-views';
import { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';
import { AccountMail } from './account-mail.service';
import { EmailRequestThrottle } from './email-request-throttle.service';
import { EmailTokens, emailTokenInvalid } from './email-tokens.service';

/** Proof that a customer's address is theirs: a link sent at registration (and on request), opened by the reader. */
@Injectable()
export class EmailVerificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly tokens: EmailTokens,
    private readonly mail: AccountMail,
    private readonly throttle: EmailRequestThrottle,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  /** Queues the verification message in the caller's transaction (a registration). */
  async send(manager: EntityManager, customer: Customer, returnUrl: string | null): Promise<void> {
    await this.mail.send(manager, customer, { kind: 'email_verification', ttlMinutes: EMAIL_VERIFICATION_TTL_MINUTES }, returnUrl);
  }

  /** A new link for the signed-in customer; nothing is sent when the address is verified already. */
  async request(request: RequestOf<typeof AccountEmailRequests.RequestEmailVerification>): Promise<EmailRequestAccepted> {
    const customer = await this.customers.findById(request.publicationId, request.customerId);
    if (!customer) throw new AppError('not_found', 'No such customer.');
    await this.throttle.request(customer.publicationId, 'email_verification', customer.email);
    if (customer.emailVerifiedAt === null) {
      await this.dataSource.transaction((manager) => this.send(manager, customer, request.returnUrl ?? null));
    }
    return { accepted: true };
  }

  async verify(request: RequestOf<typeof AccountEmailRequests.VerifyEmail>): Promise<CustomerProfile> {
    return this.dataSource.transaction(async (manager) => {
      const customerId = await this.tokens.consume(manager, request.publicationId, 'email_verification', request.token);
      const customer = await manager.findOneBy(Customer, { id: customerId, publicationId: request.publicationId });
      if (!customer) throw emailTokenInvalid();
      await this.markVerified(manager, customer);
      return toCustomerProfile(customer);
    });
  }

  /**
   * Records that the customer proved the address theirs (a verification link, a reset or a sign-in
   * code), announcing it with `customer.verified` the first time.
   */
  async markVerified(manager: EntityManager, customer: Customer): Promise<void> {
    if (customer.emailVerifiedAt !== null) return;
    const now = this.clock.now();
    const { affected } = await manager.update(Customer, { id: customer.id, email: customer.email }, { emailVerifiedAt: now, updatedAt: now });
    // The address changed since the message was sent: the proof was for the old one.
    if (!affected) return;
    customer.emailVerifiedAt = now;
    customer.updatedAt = now;
    await this.outbox.add(manager, Events.CustomerVerified, toCustomerEventData(customer), customer.publicationId);
  }
}
