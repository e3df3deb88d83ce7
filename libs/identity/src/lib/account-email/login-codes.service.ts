import { Injectable } from '@nestjs/common';
import { AccountEmailRequests, LOGIN_CODE_TTL_MINUTES, type CustomerAuthResult, type EmailRequestAccepted, type RequestOf } from '@gatehouse/contracts';
import { setTimeout } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';
import { SessionsService } from '../sessions/sessions.service';
import { AccountMail, type AccountMailKind } from './account-mail.service';
import { EmailTokens, codeInvalid, emailTokenInvalid } from './email-tokens.service';
import { EmailVerificationService } from './email-verification.service';

/** Longer than a wrong code for a known address takes on a loaded machine (a locked read and an update). */
const REFUSAL_FLOOR_MS = 50;

const LOGIN_CODE_MAIL: AccountMailKind = { kind: 'login_code', ttlMinutes: LOGIN_CODE_TTL_MINUTES, withCode: true };

/** Passwordless sign-in: a 6-digit code and a link by email, either of which signs the reader in once. */
@Injectable()
export class LoginCodesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly tokens: EmailTokens,
    private readonly mail: AccountMail,
    private readonly verification: EmailVerificationService,
    private readonly sessions: SessionsService,
  ) {}

  /** The same answer whether or not the address is a customer's; only a customer's gets a code. */
  async request(request: RequestOf<typeof AccountEmailRequests.RequestLoginCode>): Promise<EmailRequestAccepted> {
    await this.mail.sendToAddress(request.publicationId, request.email, LOGIN_CODE_MAIL, request.returnUrl ?? null);
    return { accepted: true };
  }

  /**
   * An unknown address and a wrong code fail alike, and in the same time: a refusal is answered no
   * sooner than REFUSAL_FLOOR_MS after the request came, which covers the work a known address costs.
   */
  async verifyCode(request: RequestOf<typeof AccountEmailRequests.VerifyLoginCode>): Promise<CustomerAuthResult> {
    const floor = setTimeout(REFUSAL_FLOOR_MS);
    let customer: Customer | null;
    try {
      customer = await this.customers.findByEmail(request.publicationId, request.email);
      if (!customer) throw codeInvalid();
      await this.tokens.consumeCode(customer, request.code);
    } catch (refusal) {
      await floor;
      throw refusal;
    }
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
