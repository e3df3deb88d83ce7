import { Injectable } from '@nestjs/common';
import { AccountEmailRequests, LOGIN_CODE_TTL_MINUTES, type CustomerAuthResult, type EmailRequestAccepted, type RequestOf } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { normaliseEmail } from '../customers/customer-email';
import { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';
import { EmailQueue } from '../email/email-queue';
import { SessionsService } from '../sessions/sessions.service';
import { EmailRequestThrottle } from './email-request-throttle';
import { EmailTokens, codeInvalid, emailTokenInvalid } from './email-tokens.service';
import { EmailVerificationService } from './email-verification.service';

/** Passwordless sign-in: a 6-digit code and a link by email, either of which signs the reader in once. */
@Injectable()
export class LoginCodesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly tokens: EmailTokens,
    private readonly queue: EmailQueue,
    private readonly throttle: EmailRequestThrottle,
    private readonly verification: EmailVerificationService,
    private readonly sessions: SessionsService,
  ) {}

  /** The same answer whether or not the address is a customer's; only a customer's gets a code. */
  async request(request: RequestOf<typeof AccountEmailRequests.RequestLoginCode>): Promise<EmailRequestAccepted> {
    const email = normaliseEmail(request.email);
    await this.throttle.count(request.publicationId, email, 'login_code');
    const customer = await this.customers.findByEmail(request.publicationId, email);
    await this.dataSource.transaction(async (manager) => {
      if (!customer) return;
      const { token, code } = await this.tokens.issue(manager, customer, 'login_code', LOGIN_CODE_TTL_MINUTES, true);
      await this.queue.enqueue(manager, {
        publicationId: customer.publicationId,
        customerId: customer.id,
        kind: 'login_code',
        to: customer.email,
        recipientName: customer.name,
        language: customer.language,
        secrets: { token, code },
        returnUrl: request.returnUrl ?? null,
      });
    });
    return { accepted: true };
  }

  /** An unknown address and a wrong code fail alike. */
  async verifyCode(request: RequestOf<typeof AccountEmailRequests.VerifyLoginCode>): Promise<CustomerAuthResult> {
    const customer = await this.customers.findByEmail(request.publicationId, request.email);
    if (!customer) throw codeInvalid();
    await this.tokens.consumeCode(customer, request.code);
    return this.signIn(customer);
  }

  async confirmLink(request: RequestOf<typeof AccountEmailRequests.ConfirmLoginLink>): Promise<CustomerAuthResult> {
    const customer = await this.dataSource.transaction(async (manager) => {
      const customerId = await this.tokens.consume(manager, request.publicationId, 'login_code', request.token);
      const found = await manager.findOneBy(Customer, { id: customerId, publicationId: request.publicationId });
      if (!found) throw emailTokenInvalid();
      return found;
    });
    return this.signIn(customer);
  }

  /** The code reached the reader at this address: it is theirs. */
  private async signIn(customer: Customer): Promise<CustomerAuthResult> {
    await this.dataSource.transaction((manager) => this.verification.markVerified(manager, customer));
    return this.sessions.start(customer);
  }
}
