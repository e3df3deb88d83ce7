import { Injectable } from '@nestjs/common';
import { AccountEmailRequests, PASSWORD_RESET_TTL_MINUTES, type CustomerAuthResult, type EmailRequestAccepted, type RequestOf } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { Customer } from '../customers/customer.entity';
import { PasswordHasher } from '../customers/password-hasher.service';
import { RefreshTokens } from '../sessions/refresh-tokens.service';
import { SessionsService } from '../sessions/sessions.service';
import { AccountMail, type AccountMailKind } from './account-mail.service';
import { EmailTokens, emailTokenInvalid } from './email-tokens.service';
import { EmailVerificationService } from './email-verification.service';

const PASSWORD_RESET_MAIL: AccountMailKind = { kind: 'password_reset', ttlMinutes: PASSWORD_RESET_TTL_MINUTES };

/** A forgotten password: a single-use link by email, then a new password that ends every other session. */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly passwords: PasswordHasher,
    private readonly tokens: EmailTokens,
    private readonly mail: AccountMail,
    private readonly verification: EmailVerificationService,
    private readonly refreshTokens: RefreshTokens,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
  ) {}

  /** The same answer whether or not the address is a customer's; only a customer's gets a message. */
  async request(request: RequestOf<typeof AccountEmailRequests.RequestPasswordReset>): Promise<EmailRequestAccepted> {
    await this.mail.sendToAddress(request.publicationId, request.email, PASSWORD_RESET_MAIL, request.returnUrl ?? null);
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
