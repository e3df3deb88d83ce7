import { Injectable } from '@nestjs/common';
import { AccountEmailRequests, PASSWORD_RESET_TTL_MINUTES, type CustomerAuthResult, type EmailRequestAccepted, type RequestOf } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { normaliseEmail } from '../customers/customer-email';
import { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';
import { PasswordHasher } from '../customers/password-hasher';
import { EmailQueue } from '../email/email-queue';
import { RefreshTokens } from '../sessions/refresh-tokens.service';
import { SessionsService } from '../sessions/sessions.service';
import { EmailRequestThrottle } from './email-request-throttle';
import { EmailTokens, emailTokenInvalid } from './email-tokens.service';
import { EmailVerificationService } from './email-verification.service';

/** A forgotten password: a single-use link by email, then a new password that ends every other session. */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly passwords: PasswordHasher,
    private readonly tokens: EmailTokens,
    private readonly queue: EmailQueue,
    private readonly throttle: EmailRequestThrottle,
    private readonly verification: EmailVerificationService,
    private readonly refreshTokens: RefreshTokens,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
  ) {}

  /** The same answer whether or not the address is a customer's; only a customer's gets a message. */
  async request(request: RequestOf<typeof AccountEmailRequests.RequestPasswordReset>): Promise<EmailRequestAccepted> {
    const email = normaliseEmail(request.email);
    await this.throttle.count(request.publicationId, email, 'password_reset');
    const customer = await this.customers.findByEmail(request.publicationId, email);
    await this.dataSource.transaction(async (manager) => {
      if (!customer) return;
      const { token } = await this.tokens.issue(manager, customer, 'password_reset', PASSWORD_RESET_TTL_MINUTES);
      await this.queue.enqueue(manager, {
        publicationId: customer.publicationId,
        customerId: customer.id,
        kind: 'password_reset',
        to: customer.email,
        recipientName: customer.name,
        language: customer.language,
        secrets: { token },
        returnUrl: request.returnUrl ?? null,
      });
    });
    return { accepted: true };
  }

  /** Sets the password, revokes every refresh-token family of the customer and starts a new session. */
  async confirm(request: RequestOf<typeof AccountEmailRequests.ConfirmPasswordReset>): Promise<CustomerAuthResult> {
    const passwordHash = await this.passwords.hash(request.password);
    const customer = await this.dataSource.transaction(async (manager) => {
      const customerId = await this.tokens.consume(manager, request.publicationId, 'password_reset', request.token);
      const found = await manager.findOne(Customer, { where: { id: customerId, publicationId: request.publicationId }, lock: { mode: 'pessimistic_write' } });
      if (!found) throw emailTokenInvalid();
      const now = this.clock.now();
      await manager.update(Customer, { id: found.id }, { passwordHash, updatedAt: now });
      found.passwordHash = passwordHash;
      found.updatedAt = now;
      await this.refreshTokens.revokeAllOf(manager, found);
      await this.verification.markVerified(manager, found);
      return found;
    });
    return this.sessions.start(customer);
  }
}
