import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { EmailModule } from '../email/email.module';
import { SessionsModule } from '../sessions/sessions.module';
import { AccountEmailHandler } from './account-email.handler';
import { AccountMail } from './account-mail.service';
import { EmailRequestThrottle } from './email-request-throttle.service';
import { EmailTokens } from './email-tokens.service';
import { EmailVerificationService } from './email-verification.service';
import { LoginCodesService } from './login-codes.service';
import { PasswordResetService } from './password-reset.service';

@Module({
  imports: [CustomersModule, SessionsModule, EmailModule],
  controllers: [AccountEmailHandler],
  providers: [EmailTokens, EmailRequestThrottle, AccountMail, EmailVerificationService, PasswordResetService, LoginCodesService],
  exports: [EmailVerificationService, EmailTokens],
})
export class AccountEmailModule {}
